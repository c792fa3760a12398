import { LEGAL_EFFECTIVE_DATE } from '@ledgerpad/shared';

// Static legal text (spec: effective February 28, 2025).

export function PrivacyPage() {
  return (
    <article className="panel legal">
      <h1>Privacy Policy</h1>
      <p className="legal-dates">Effective date: {LEGAL_EFFECTIVE_DATE}.</p>
      <h2>What we collect</h2>
      <p>
        When you sign in with the messaging app we collect your messaging ID and username. When you sign in
        with Google we collect your Google ID and email address.
      </p>
      <h2>Cookies</h2>
      <p>
        We use essential cookies only: the session cookie that keeps you signed in and its security token.
      </p>
      <h2>Public ledger data</h2>
      <p>
        Transactions on the XRP Ledger are public by design. Wallet addresses and their activity can be seen
        by anyone.
      </p>
    </article>
  );
}
