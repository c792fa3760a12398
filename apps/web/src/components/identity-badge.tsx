import { IDENTITY_MESSAGES, identityBadge, type TokenIdentity } from '@ledgerpad/shared';
import './identity-badge.css';

// The token identity marks (issue 24), one component wherever a token is named: 'Verified' only
// when control of the issuer was proven, 'Unverified' otherwise, plus a 'looks like {TICKER}'
// warning for a lookalike of a verified token; and the note on links a lister wrote.

export function IdentityBadge({
  token,
  compact = false,
}: {
  token: Pick<TokenIdentity, 'verified' | 'lookalike_of'>;
  /** Only the unverified mark and the warning (dense tables). */
  compact?: boolean;
}) {
  const text = identityBadge(token);
  return (
    <>
      {(!compact || !token.verified) && (
        <span
          className={`identity-badge ${token.verified ? 'identity-verified' : 'identity-unverified'}`}
          title={
            token.verified
              ? 'The lister proved control of the issuer (or deployed it here)'
              : 'Nobody proved control of the issuer: name, logo and links may not be the issuer’s'
          }
          data-testid="identity-badge"
        >
          {token.verified ? '✓ ' : ''}
          {text}
        </span>
      )}
      {token.lookalike_of && (
        <span className="lookalike-warning" role="note" data-testid="lookalike-warning">
          ⚠ {IDENTITY_MESSAGES.looksLike(token.lookalike_of)}
        </span>
      )}
    </>
  );
}

/** Shown beside links the issuer did not write. */
export function ListerLinksNote({ token }: { token: Pick<TokenIdentity, 'metadata_by'> }) {
  if (token.metadata_by !== 'lister') return null;
  return (
    <span className="lister-links-note" data-testid="lister-links-note">
      {IDENTITY_MESSAGES.linksByLister}
    </span>
  );
}
