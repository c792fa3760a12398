import { Link } from 'react-router';
import {
  IDENTITY_MESSAGES,
  identityBadge,
  identityBadgeTitle,
  identityMark,
  tokenPath,
  type TokenIdentity,
} from '@ledgerpad/shared';
import './identity-badge.css';

// The token identity marks (issues 24, 35), one component wherever a token is named. The badge says
// exactly what was proven — 'Controls the issuer', 'example.com vouches', 'Deployed here', 'Checked
// by Ledgerpad' — or 'Unverified', never 'the real project'. A token that gives way to another with
// more ledger history reads 'same ticker as …' (a link to that token's page) whatever its badge; one
// wearing XRP's or RLUSD's identity 'looks like RLUSD'. And the note on links a lister wrote.

type Shown = Pick<TokenIdentity, 'verified' | 'lookalike_of'> &
  Partial<Pick<TokenIdentity, 'verified_by' | 'verified_domain' | 'same_as'>>;

export function IdentityBadge({
  token,
  compact = false,
  plain = false,
}: {
  token: Shown;
  /** Only the unverified mark and the warning (dense tables). */
  compact?: boolean;
  /** Inside a button or a clickable row: the 'same ticker as' mark as text, not a link. */
  plain?: boolean;
}) {
  const full = { verified_by: null, verified_domain: null, same_as: null, ...token };
  const text = identityBadge(full);
  // A domain's vouch on top of another proof shows as its own chip (what each proof says, apart).
  const domainChip = full.verified && full.verified_domain && full.verified_by !== 'toml';
  return (
    <>
      {(!compact || !full.verified) && (
        <span
          className={`identity-badge ${full.verified ? 'identity-verified' : 'identity-unverified'}`}
          title={identityBadgeTitle(full)}
          data-testid="identity-badge"
        >
          {full.verified ? '✓ ' : ''}
          {text}
        </span>
      )}
      {!compact && domainChip && (
        <span
          className="identity-badge identity-verified"
          title={`${full.verified_domain}’s xrp-ledger.toml lists this issuer and token.`}
          data-testid="identity-domain"
        >
          ✓ {full.verified_domain} vouches
        </span>
      )}
      <IdentityMark token={full} plain={plain} />
    </>
  );
}

/** 'same ticker as ZETA' (a link to it) or 'looks like RLUSD', or nothing. */
export function IdentityMark({
  token,
  plain = false,
}: {
  token: Pick<TokenIdentity, 'lookalike_of'> & Partial<Pick<TokenIdentity, 'same_as'>>;
  plain?: boolean;
}) {
  const mark = identityMark({ lookalike_of: token.lookalike_of, same_as: token.same_as ?? null });
  if (!mark) return null;
  const same = token.same_as;
  return (
    <span
      className="lookalike-warning"
      role="note"
      data-testid="lookalike-warning"
      title={same ? IDENTITY_MESSAGES.sameAsTitle : undefined}
    >
      ⚠{' '}
      {same && !plain ? (
        <Link
          to={tokenPath(same.issuer_address, same.currency)}
          onClick={(e) => e.stopPropagation()}
          data-testid="same-as-link"
        >
          {mark}
        </Link>
      ) : (
        mark
      )}
    </span>
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
