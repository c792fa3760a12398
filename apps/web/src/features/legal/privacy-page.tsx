import { LEGAL_EFFECTIVE_DATE } from '@ledgerpad/shared';
import './legal.css';

// Static legal text (spec: effective February 28, 2025).

export function PrivacyPage() {
  return (
    <article className="panel legal">
      <h1>Privacy Policy</h1>
      <p className="legal-dates">Effective date: {LEGAL_EFFECTIVE_DATE}.</p>
      <h2>What we collect</h2>
      <p>
        When you sign in with the messaging app we collect your messaging ID and username. When you sign in
        with Google we collect your Google ID and email address. We collect nothing else about you to sign you
        in: no password, no phone number.
      </p>
      <h2>How we use it</h2>
      <p>
        We use this information only to sign you in, to keep your wallets, tokens and settings attached to
        your account, and to prefill the card payment form with your email when you choose to buy XRP. We do
        not sell it or share it for advertising.
      </p>
      <h2>Cookies</h2>
      <p>
        We use essential cookies only: the session cookie that keeps you signed in and its security token.
        There are no analytics or advertising cookies.
      </p>
      <h2>Public ledger data</h2>
      <p>
        Transactions on the XRP Ledger are public by design. Wallet addresses and their activity can be seen
        by anyone, and we cannot remove them from the ledger.
      </p>
      <h2>Third parties</h2>
      <p>
        If you buy XRP with a card, the card payment provider processes your payment under its own privacy
        policy. Signing in with Google or the messaging app is subject to their policies too.
      </p>
      <h2>Your rights</h2>
      <p>
        You can ask us for a copy of your account data or for its deletion through the support chat. Deleting
        an account does not remove anything already recorded on the public ledger.
      </p>
    </article>
  );
}
