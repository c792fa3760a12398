import {
  LEGAL_EFFECTIVE_DATE,
  MIN_AGE,
  RESTRICTED_JURISDICTIONS,
  TERMS_LAST_UPDATED,
  TOKEN_CREATION_FEE_XRP,
  TRADING_FEE_PERCENT,
  Decimal,
} from '@ledgerpad/shared';
import './legal.css';
import { usePlatformFees } from '../../lib/platform-fees';

// Static legal text (spec: both pages effective February 28, 2025; terms updated April 30, 2025).
// The dated text keeps the fees it stated on that date (the spec's 15 XRP and 0.75%); when an admin
// has changed a fee since, the current figure stands beside it (docs/public-site.md "Legal pages").

/** '15 XRP' — or, after a change, '15 XRP at the date above; currently 20 XRP'. */
function FeeFigure({ dated, current, unit }: { dated: string; current: string | undefined; unit: string }) {
  const same = current === undefined || new Decimal(current).eq(dated);
  return (
    <span data-testid="terms-fee">
      {dated}
      {unit}
      {!same && (
        <>
          {' '}
          at the date above;{' '}
          <strong>
            currently {current}
            {unit}
          </strong>
        </>
      )}
    </span>
  );
}

export function TermsPage() {
  const fees = usePlatformFees();
  return (
    <article className="panel legal">
      <h1>Terms of Service</h1>
      <p className="legal-dates">
        Effective date: {LEGAL_EFFECTIVE_DATE}. Last updated: {TERMS_LAST_UPDATED}.
      </p>
      <p>
        These terms govern your use of Ledgerpad, a web app to launch, list, trade and manage tokens on the
        XRP Ledger. By using the service you accept them.
      </p>
      <h2>1. The service</h2>
      <p>
        Ledgerpad provides tools to create, list, trade and manage tokens on the XRP Ledger. Transactions are
        recorded on the public XRP Ledger and are final once validated: nobody, including us, can reverse
        them.
      </p>
      <h3 id="custody">Who holds your keys</h3>
      <p>
        For self-custody wallets the platform is non-custodial and does not store private keys: a{' '}
        <strong>browser wallet</strong>&apos;s key is created or imported in your browser and kept there,
        encrypted with your passphrase, and a <strong>wallet app</strong>&apos;s key (Xaman, Crossmark,
        GemWallet, WalletConnect, Ledger) stays in the app. Neither ever reaches our servers, and we cannot
        sign for those wallets: every transaction of theirs is prepared by us and signed by you. If you lose
        the key and its passphrase, we cannot recover them.
      </p>
      <p>
        <strong>Custodial wallets</strong> are the exception, and only when you choose them: a wallet made
        with Create Wallet, or imported with its key kept on the server, has its key stored encrypted on our
        server, which signs the transactions you ask for. Its secret is shown to you once, when it is created;
        keep it safe, because whoever holds it controls the wallet. Every wallet is labelled with who holds
        its key.
      </p>
      <h2>2. Eligibility</h2>
      <p>
        You must be at least {MIN_AGE} years old to use the service. The service is not available to persons
        located in, or residents of, the following {RESTRICTED_JURISDICTIONS.length} restricted jurisdictions:
      </p>
      <ul className="jurisdictions">
        {RESTRICTED_JURISDICTIONS.map((j) => (
          <li key={j}>{j}</li>
        ))}
      </ul>
      <p>You may not use a VPN or any other means to get around this restriction.</p>
      <h2>3. Fees</h2>
      <p>
        Creating a token costs a token creation fee of{' '}
        <FeeFigure dated={TOKEN_CREATION_FEE_XRP} current={fees.data?.service_fee} unit=" XRP" />. A trading
        fee of <FeeFigure dated={TRADING_FEE_PERCENT} current={fees.data?.trading_fee_percent} unit="%" />{' '}
        applies to all platform transactions. Network fees and reserves of the XRP Ledger are separate and are
        paid to the network, not to us. Fees are shown before you confirm an action and are not refundable
        once the transaction is validated.
      </p>
      <h2>4. Your responsibilities</h2>
      <p>
        You are responsible for the tokens you create and list, for their names, logos and descriptions, and
        for complying with the laws that apply to you. Do not use the service for fraud, market manipulation,
        money laundering or to infringe anyone&apos;s rights. We may delist a token or suspend an account that
        breaks these terms.
      </p>
      <h2>5. Risks</h2>
      <p>
        Tokens are volatile and may lose all value. You alone decide what you buy, sell, create or burn.
        Nothing on the platform is financial, investment or legal advice. Listing a token is not an
        endorsement of it.
      </p>
      <h2>6. Limitation of liability</h2>
      <p>
        The service is provided &ldquo;as is&rdquo;. To the extent the law allows, our total liability for any
        claim is limited to the fees you paid to the platform in the last six months before the claim arose.
      </p>
      <h2>7. Claims</h2>
      <p>
        Any claim must be filed within one year after the events that gave rise to it; later claims are
        barred.
      </p>
      <h2>8. Changes</h2>
      <p>
        We may update these terms. The date of the latest update is shown at the top of this page; using the
        service after an update means you accept the new terms.
      </p>
    </article>
  );
}
