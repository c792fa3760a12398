import { IDENTITY_MESSAGES, type TokenView } from '@ledgerpad/shared';
import { IdentityBadge } from '../../components/identity-badge';
import { explorerTxUrl, useLedgerNetwork } from '../../lib/auth-methods';
import { useIdentityHistory } from './api';

// The token page's 'About' (issue 35): the description carries the same identity marks as the
// header — what was proven, a 'same ticker as …' mark, and who wrote the text — and the token's
// public identity history: its listing, claims, a domain's vouch, every change of controller with
// its proof, and admin decisions.

export function AboutPanel({ token }: { token: TokenView }) {
  const network = useLedgerNetwork();
  const history = useIdentityHistory(token.issuer_address, token.currency, true);
  return (
    <section className="panel about-panel" aria-labelledby="about-title" data-testid="about-panel">
      <h2 id="about-title" className="panel-title">
        About {token.name}
      </h2>
      <p className="about-identity">
        <IdentityBadge token={token} />
      </p>
      {token.description ? (
        <>
          <p className="token-description">{token.description}</p>
          {token.metadata_by === 'lister' && (
            <p className="about-author" data-testid="about-author">
              Written by the lister, not the issuer: nobody proved control of the issuer.
            </p>
          )}
        </>
      ) : (
        <p className="muted small">No description.</p>
      )}
      <details className="identity-history" data-testid="identity-history">
        <summary>Identity history</summary>
        {history.isPending ? (
          <p className="muted small">Loading…</p>
        ) : history.isError || !history.data ? (
          <p className="muted small">The history could not be loaded.</p>
        ) : (
          <ol>
            {history.data.map((e, i) => {
              const link =
                e.evidence && /^[0-9A-F]{64}$/i.test(e.evidence) ? explorerTxUrl(network, e.evidence) : null;
              return (
                <li key={i} className={e.controller_changed ? 'controller-changed' : undefined}>
                  <time dateTime={e.at}>{e.at.slice(0, 10)}</time> {e.text}
                  {e.evidence && (
                    <>
                      {' '}
                      {link ? (
                        <a href={link} target="_blank" rel="noreferrer">
                          proof
                        </a>
                      ) : (
                        <span className="muted small evidence" title={e.evidence}>
                          ({e.evidence.length > 60 ? `${e.evidence.slice(0, 28)}…` : e.evidence})
                        </span>
                      )}
                    </>
                  )}
                </li>
              );
            })}
          </ol>
        )}
        {token.same_as && <p className="muted small">{IDENTITY_MESSAGES.sameAsTitle}</p>}
      </details>
    </section>
  );
}
