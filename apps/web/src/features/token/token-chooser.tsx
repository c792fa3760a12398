import { Link } from 'react-router';
import { displayTicker, tokenPath, type TokenView } from '@ledgerpad/shared';
import { IdentityBadge } from '../../components/identity-badge';

// /token/{issuer} of an issuer that lists several tokens (issue 35): one page per token, so the page
// asks which — each with its own identity marks — instead of showing one token's figures for another.

export function TokenChooser({ issuer, tokens }: { issuer: string; tokens: TokenView[] }) {
  return (
    <section className="panel token-chooser" aria-labelledby="chooser-title" data-testid="token-chooser">
      <h1 id="chooser-title">Which token?</h1>
      <p className="muted">
        This issuer lists {tokens.length} tokens. Each has its own page, market, holders and risk check.
      </p>
      <p className="address muted small">{issuer}</p>
      <ul className="chooser-list">
        {tokens.map((t) => (
          <li key={t.currency}>
            <Link className="chooser-link" to={tokenPath(t.issuer_address, t.currency)}>
              {t.logoUrl ? (
                <img className="chooser-logo" src={t.logoUrl} alt="" width={32} height={32} />
              ) : (
                <span className="chooser-logo token-logo-empty" aria-hidden="true">
                  {t.ticker.slice(0, 1)}
                </span>
              )}
              <span className="chooser-names">
                <strong>{displayTicker(t.ticker)}</strong> <span className="muted">{t.name}</span>
              </span>
            </Link>
            <span className="chooser-marks">
              <IdentityBadge token={t} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
