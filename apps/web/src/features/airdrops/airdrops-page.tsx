import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router';
import {
  AIRDROP_MESSAGES,
  isOwnImageUrl,
  tokenPath,
  type Airdrop,
  AIRDROP_COUNTDOWN_MS,
} from '@ledgerpad/shared';
import { IdentityBadge } from '../../components/identity-badge';
import { LoadFailed } from '../../components/load-failed';
import { Modal } from '../../components/modal';
import { useTokenIdentities, type KnownIdentity } from '../../lib/token-identities';
import { useSession } from '../../lib/session';
import { useAirdrops } from './api';
import { ClaimModal } from './claim-modal';
import { cardState, countdown, perClaim, tokenName } from './rules';
import './airdrops.css';

// Only visitors who try to claim while signed out download the login box.
const LoginBox = lazy(() => import('../../components/login-box').then((m) => ({ default: m.LoginBox })));

/** The clock the countdowns read, ticking once a minute. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), AIRDROP_COUNTDOWN_MS);
    return () => clearInterval(t);
  }, []);
  return now;
}

/**
 * /airdrops (spec 001 §2 Airdrops): the public board of airdrops — each card with its project,
 * token, per-claim amount, progress and countdown — and the claim modal. Signed-out visitors can
 * look; claiming asks them to sign in first.
 */
export function AirdropsPage() {
  const session = useSession();
  const userId = session.status === 'signed-in' ? session.user.id : undefined;
  const airdrops = useAirdrops(userId);
  const identity = useTokenIdentities();
  const now = useMinuteClock();
  const [claiming, setClaiming] = useState<Airdrop>();
  const [signIn, setSignIn] = useState(false);

  // Signed in from the prompt: it has done its job.
  const signedIn = userId !== undefined;
  useEffect(() => {
    if (signedIn) setSignIn(false);
  }, [signedIn]);

  const onClaim = (a: Airdrop) => (userId === undefined ? setSignIn(true) : setClaiming(a));

  return (
    <div className="airdrops-page">
      <div className="page-title-row">
        <h1>Airdrops</h1>
        {userId !== undefined && (
          <Link className="button-link airdrops-create" to="/airdrop/create">
            Create Airdrop
          </Link>
        )}
      </div>
      <p className="muted airdrops-intro">Claim free tokens from XRPL projects. One claim per user.</p>

      {airdrops.isPending ? (
        <section className="panel" aria-busy="true">
          <p className="muted">Loading airdrops…</p>
        </section>
      ) : airdrops.isError ? (
        <LoadFailed
          as="section"
          className="panel"
          message="Could not load the airdrops."
          onRetry={() => void airdrops.refetch()}
        />
      ) : airdrops.data.length === 0 ? (
        <section className="panel">
          <p className="muted">No airdrops yet.</p>
        </section>
      ) : (
        <ul className="airdrop-grid" aria-label="Airdrops">
          {airdrops.data.map((a) => (
            <AirdropCard
              key={a.id}
              airdrop={a}
              now={now}
              onClaim={() => onClaim(a)}
              identity={identity(a.token_code, a.issuer_address)}
            />
          ))}
        </ul>
      )}

      {claiming && <ClaimModal airdrop={claiming} onClose={() => setClaiming(undefined)} />}
      <Modal open={signIn} onOpenChange={setSignIn} title="Sign in to claim">
        <p className="muted">Log in to claim airdrops. You will come back to this page.</p>
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <LoginBox returnTo="/airdrops" />
        </Suspense>
      </Modal>
    </div>
  );
}

export function AirdropCard({
  airdrop: a,
  now,
  onClaim,
  identity,
}: {
  airdrop: Airdrop;
  now: number;
  onClaim: () => void;
  /** The airdropped token's identity marks, as the list shows them (issue 35). */
  identity?: KnownIdentity;
}) {
  const state = cardState(a, now);
  const token = tokenName(a);
  const percent = a.max_claims > 0 ? Math.min(100, (a.claimed_count / a.max_claims) * 100) : 0;
  return (
    <li className={`panel airdrop-card airdrop-${state}`} data-testid="airdrop-card" data-state={state}>
      <div className="airdrop-head">
        {/* Images only from us: anything but an uploaded logo is not rendered (issue 24). */}
        {isOwnImageUrl(a.logo_url) ? (
          <img className="airdrop-logo" src={a.logo_url} alt="" width={48} height={48} loading="lazy" />
        ) : (
          <span className="airdrop-logo airdrop-logo-empty" aria-hidden="true">
            {token.slice(0, 1)}
          </span>
        )}
        <div className="airdrop-title">
          <h2>{a.project_name}</h2>
          {a.tagline && <p className="muted small">{a.tagline}</p>}
        </div>
      </div>
      <dl className="airdrop-facts">
        <dt>Token</dt>
        <dd>
          <Link to={tokenPath(a.issuer_address, a.token_code)}>{token}</Link>
          {identity && <IdentityBadge token={identity} compact />}
        </dd>
        <dt>Per claim</dt>
        <dd data-testid="per-claim">
          {perClaim(a)} {token}
        </dd>
        <dt>Claimed</dt>
        <dd data-testid="claimed-count">
          {a.claimed_count} / {a.max_claims}
        </dd>
      </dl>
      <div
        className="airdrop-progress"
        role="progressbar"
        aria-label="Claimed"
        aria-valuemin={0}
        aria-valuemax={a.max_claims}
        aria-valuenow={a.claimed_count}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <p
        className={state === 'expired' ? 'airdrop-countdown expired' : 'airdrop-countdown'}
        data-testid="countdown"
      >
        {state === 'expired' ? 'Expired' : countdown(a.expiry, now)}
      </p>
      {(a.website_url || a.twitter_url) && (
        <p className="airdrop-links">
          {a.website_url && (
            <a href={a.website_url} target="_blank" rel="noopener noreferrer">
              Website
            </a>
          )}
          {a.twitter_url && (
            <a href={a.twitter_url} target="_blank" rel="noopener noreferrer">
              Twitter
            </a>
          )}
        </p>
      )}
      <div className="airdrop-action">
        {state === 'claimed' ? (
          <p className="airdrop-claimed-note" role="status">
            ✓ {AIRDROP_MESSAGES.alreadyClaimed}
          </p>
        ) : state === 'own' ? (
          <p className="muted" data-testid="own-airdrop">
            Your airdrop: it is for others to claim.
          </p>
        ) : state === 'expired' ? (
          <p className="muted">{AIRDROP_MESSAGES.expired}</p>
        ) : state === 'closed' ? (
          <p className="muted">{AIRDROP_MESSAGES.exhausted}</p>
        ) : (
          <button type="button" className="airdrop-claim" onClick={onClaim}>
            Claim
          </button>
        )}
      </div>
    </li>
  );
}
