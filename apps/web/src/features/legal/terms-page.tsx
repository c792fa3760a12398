import {
  LEGAL_EFFECTIVE_DATE,
  MIN_AGE,
  TERMS_LAST_UPDATED,
  TOKEN_CREATION_FEE_XRP,
  TRADING_FEE_PERCENT,
} from '@ledgerpad/shared';

// Static legal text (spec: both pages effective February 28, 2025; terms updated April 30, 2025).

export function TermsPage() {
  return (
    <article className="panel legal">
      <h1>Terms of Service</h1>
      <p className="legal-dates">
        Effective date: {LEGAL_EFFECTIVE_DATE}. Last updated: {TERMS_LAST_UPDATED}.
      </p>
      <h2>1. The service</h2>
      <p>
        Ledgerpad provides tools to create, list, trade and manage tokens on the XRP Ledger. The platform is
        non-custodial: it does not store private keys on your behalf beyond what you explicitly choose to keep
        in its wallet tools, and every transaction is final once validated by the XRP Ledger.
      </p>
      <h2>2. Eligibility</h2>
      <p>
        You must be at least {MIN_AGE} years old to use the service. The service is not available to residents
        of nine restricted jurisdictions, which are subject to sanctions or prohibit token trading.
      </p>
      <h2>3. Fees</h2>
      <p>
        Creating a token costs a token-creation fee of {TOKEN_CREATION_FEE_XRP} XRP. A trading fee of{' '}
        {TRADING_FEE_PERCENT}% applies to all platform transactions. Network fees and reserves of the XRP
        Ledger are separate and are paid to the network, not to us.
      </p>
      <h2>4. Risks</h2>
      <p>
        Tokens are volatile and may lose all value. You alone decide what you buy, sell, create or burn.
        Nothing on the platform is financial advice.
      </p>
      <h2>5. Limitation of liability</h2>
      <p>
        Our total liability for any claim is limited to the fees you paid to the platform in the six months
        before the claim arose.
      </p>
      <h2>6. Claims</h2>
      <p>Any claim must be filed within one year after the events that gave rise to it.</p>
    </article>
  );
}
