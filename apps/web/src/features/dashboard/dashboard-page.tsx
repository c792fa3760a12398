import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import { DASHBOARD_MESSAGES, type TokenView } from '@ledgerpad/shared';
import { IdentityBadge } from '../../components/identity-badge';
import { CopyButton } from '../../components/copy-button';
import { Modal, ModalActions } from '../../components/modal';
import { useSession } from '../../lib/session';
import { groupDigits, useIssuerWallet, useRewardTotals, useUserTokens } from './api';
import { ClaimRewardsModal } from './claim-rewards-modal';
import { DeployClaimPanel } from './deploy-claim-panel';
import { IssuerPanel } from './issuer-panel';
import { LoadFailed } from '../../components/load-failed';
import { LostControlNotice } from './lost-control';
import { PayoutHistory } from './payout-history';
import { RewardSplitPanel } from './reward-split-panel';
import { TrustLinesPanel } from './trust-lines-panel';
import { VestingPanel } from './vesting-panel';
import './dashboard.css';

/**
 * /dashboard, Token Management (spec 001 §2): the tokens the user deployed, the selected token's
 * issuer (Require Authorization, blackhole) and its trust lines, an instructions popup, and the
 * creator rewards card with its claim modal.
 */
export function DashboardPage() {
  const session = useSession();
  const userId = session.status === 'signed-in' ? session.user.id : undefined;
  const tokens = useUserTokens(userId);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [help, setHelp] = useState(false);
  const selected = tokens.data?.find((t) => t.id === selectedId);

  return (
    <div className="dashboard-page">
      <div className="page-title-row">
        <h1>Token Management</h1>
        <button type="button" className="btn-secondary" onClick={() => setHelp(true)}>
          Instructions
        </button>
      </div>

      <LostControlNotice userId={userId} />

      <section className="panel" aria-labelledby="your-tokens-title">
        <h2 id="your-tokens-title">Your tokens</h2>
        {tokens.isPending ? (
          <p className="muted" aria-busy="true">
            Loading your tokens…
          </p>
        ) : tokens.isError ? (
          <LoadFailed
            className="error-inline"
            message="Could not load your tokens."
            error={tokens.error}
            onRetry={() => void tokens.refetch()}
          />
        ) : tokens.data.length === 0 ? (
          <p className="empty-state">
            You have not deployed a token yet. <Link to="/deploy-list">Deploy one</Link>.
          </p>
        ) : (
          <ul className="dashboard-tokens" aria-label="Your tokens">
            {tokens.data.map((t) => (
              <li key={t.id}>
                <button
                  type="button"
                  className={t.id === selectedId ? 'token-pick selected' : 'token-pick'}
                  aria-pressed={t.id === selectedId}
                  onClick={() => setSelectedId(t.id)}
                >
                  {t.logoUrl ? (
                    <img src={t.logoUrl} alt="" width={32} height={32} />
                  ) : (
                    <span className="token-dot" />
                  )}
                  <span className="token-pick-text">
                    <strong>{t.ticker}</strong>
                    <IdentityBadge token={t} compact plain />
                    <span className="muted small">{t.name}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      {selected ? (
        <TokenManager key={selected.id} token={selected} />
      ) : (
        tokens.data &&
        tokens.data.length > 0 && (
          <section className="panel">
            <p className="empty-state" role="status">
              {DASHBOARD_MESSAGES.selectToken}
            </p>
          </section>
        )
      )}

      <InstructionsModal open={help} onOpenChange={setHelp} />
    </div>
  );
}

function TokenManager({ token }: { token: TokenView }) {
  const issuer = useIssuerWallet(token.id);
  // Until the ledger answers, the row's flags stand in (the table needs to know about RequireAuth).
  const requireAuth = issuer.data?.requireAuthEnabled ?? token.require_auth;
  const blackholed = issuer.data?.isBlackholed ?? token.is_blackholed;
  const rewards = useRewardTotals(token);
  const [claiming, setClaiming] = useState(false);
  const closeClaim = useCallback(() => setClaiming(false), []);
  return (
    <>
      <section className="panel" aria-labelledby="token-title">
        <h2 id="token-title">
          {token.name} <span className="muted">({token.ticker})</span> <IdentityBadge token={token} />
        </h2>
        <dl className="dashboard-facts">
          <div className="wide">
            <dt>Issuer</dt>
            <dd className="dashboard-account">
              <span className="address">{token.issuer_address}</span>
              <CopyButton
                value={token.issuer_address}
                label="Copy issuer address"
                copiedMessage="Address copied"
                failedMessage="Failed to copy address."
              />
            </dd>
          </div>
          <div>
            <dt>Supply</dt>
            <dd>{groupDigits(token.supply)}</dd>
          </div>
          <div>
            <dt>Pair</dt>
            <dd>{token.liquidity_pair}</dd>
          </div>
        </dl>
      </section>

      <VestingPanel tokenId={token.id} />
      <DeployClaimPanel tokenId={token.id} ticker={token.ticker} />

      {issuer.isPending ? (
        <section className="panel">
          <p className="muted" aria-busy="true">
            Reading the issuer wallet from the ledger…
          </p>
        </section>
      ) : issuer.isError ? (
        <section className="panel">
          <LoadFailed
            className="error-inline"
            message="Could not read the issuer wallet from the ledger."
            error={issuer.error}
            onRetry={() => void issuer.refetch()}
          />
        </section>
      ) : (
        <IssuerPanel token={token} issuer={issuer.data} />
      )}

      <TrustLinesPanel token={token} requireAuth={requireAuth} blackholed={blackholed} />

      <section className="panel" aria-labelledby="rewards-title">
        <h2 id="rewards-title">Creator rewards</h2>
        <dl className="dashboard-facts">
          <div>
            <dt>Total reward</dt>
            <dd>
              {groupDigits(rewards.totalReward)} {rewards.currency}
            </dd>
          </div>
          <div>
            <dt>Claimed</dt>
            <dd>
              {groupDigits(rewards.totalClaimed)} {rewards.currency}
            </dd>
          </div>
        </dl>
        <div className="summary-actions">
          <button type="button" aria-describedby="claim-note" onClick={() => setClaiming(true)}>
            Claim Rewards
          </button>
        </div>
        <p id="claim-note" className="muted small">
          Rewards accrue from trading fees on {token.ticker}. With a reward split, a claim pays every
          recipient its share.
        </p>
      </section>
      <RewardSplitPanel token={token} />
      <PayoutHistory token={token} />
      {claiming && <ClaimRewardsModal token={token} onClose={closeClaim} />}
    </>
  );
}

function InstructionsModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="How the dashboard works">
      <div className="confirm-body dashboard-help">
        <p>Pick one of your tokens to manage it. Everything shown is read from the XRP Ledger.</p>
        <ul className="dashboard-list">
          <li>
            <strong>Freeze / Unfreeze</strong>: a frozen holder can still send the token back to the issuer,
            but not to anyone else.
          </li>
          <li>
            <strong>Authorize</strong>: with Require Authorization on, a holder’s line must be authorized
            before it can receive the token. An authorization cannot be taken back.
          </li>
          <li>
            <strong>Set limit</strong>: only the holder can change its limit, so this is offered for lines
            held by your own wallets.
          </li>
          <li>
            <strong>Sync</strong>: re-reads supply, issuer flags and trust lines from the ledger.
          </li>
          <li>
            <strong>Disable Require Auth</strong>: lets anyone hold the token without approval.
          </li>
          <li>
            <strong>Blackhole Issuer</strong>: removes every way to sign for the issuer, forever. The supply
            is then fixed and nothing above can be changed again.
          </li>
        </ul>
        <p className="muted small">
          Issuer actions are signed by the issuer wallet Ledgerpad keeps for your token.
        </p>
      </div>
      <ModalActions>
        <button type="button" onClick={() => onOpenChange(false)}>
          Got it
        </button>
      </ModalActions>
    </Modal>
  );
}
