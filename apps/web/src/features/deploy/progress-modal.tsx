import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import {
  Decimal,
  DEPLOY_JOB_TIMEOUT_MS,
  DEPLOY_MESSAGES,
  DEPLOY_POLL_DELAY_MS,
  DEPLOY_POLL_INTERVAL_MS,
  DEPLOY_STEP_GROUPS,
  DEPLOY_STEP_LABELS,
  groupDigits,
  SELF_CUSTODY_MESSAGES,
  shortAddress,
  type DevAllocationResult,
  type DeployResult,
  type JobStatusView,
} from '@ledgerpad/shared';
import { CopyButton } from '../../components/copy-button';
import { Modal } from '../../components/modal';
import { explorerTxUrl, useLedgerNetwork, type LedgerNetwork } from '../../lib/auth-methods';
import { userMessage } from '../../lib/api';
import { claimAllocation } from '../../lib/dev-allocation';
import { useLedgerAction } from '../../lib/ledger-action';
import { SigningCancelledError, type SigningWallet } from '../../lib/signer';
import { useJobStatus } from '../../lib/use-job-status';
import { listedTokenKeys, sessionKeys, walletKeys } from '../../lib/query-keys';

// The deployment progress modal (spec 001 §2, §4), compact (issue 25): the current step with a count
// ('Step 7 of 13'), the steps that run side by side as one line, and the result — issuer, links and
// Close — in a footer that stays on screen at 375 px while the step list scrolls. Progress comes
// from the socket at once, with the spec's polling as the fallback (useJobStatus). Close appears
// when the message says 'completed' or 'failed' and returns to '/'.

type Step = JobStatusView<DeployResult>['steps'][number];
const ICONS = { pending: '○', running: '◌', done: '✓', failed: '✕' } as const;

/** A step's transaction: a link to the network's explorer, or (embedded ledger) the hash to copy. */
function TxHash({ hash, network }: { hash: string; network: LedgerNetwork | undefined }) {
  const url = explorerTxUrl(network, hash);
  return (
    <span className="deploy-step-tx">
      {url ? (
        <a href={url} target="_blank" rel="noopener noreferrer" title={hash}>
          {shortAddress(hash)}
        </a>
      ) : (
        <>
          <code title={hash}>{shortAddress(hash)}</code>
          <CopyButton value={hash} label="Copy transaction hash" failedMessage="Failed to copy." />
        </>
      )}
    </span>
  );
}

/** The job's steps as the modal's lines: its groups in order, each with the steps the job has. */
function groupSteps(steps: Step[]): Array<{ label: string; steps: Step[]; status: Step['status'] }> {
  const byName = new Map(steps.map((s) => [s.name, s]));
  const grouped = new Set<string>();
  const out: Array<{ label: string; steps: Step[]; status: Step['status'] }> = [];
  for (const g of DEPLOY_STEP_GROUPS) {
    const mine = g.steps.flatMap((n) => (byName.has(n) ? [byName.get(n)!] : []));
    if (mine.length === 0) continue;
    mine.forEach((s) => grouped.add(s.name));
    // One label for one step; several share the group's.
    const label = mine.length === 1 ? (DEPLOY_STEP_LABELS[mine[0]!.name] ?? g.label) : g.label;
    out.push({ label, steps: mine, status: groupStatus(mine) });
  }
  // A step no group knows yet still shows (in the job's order), on its own.
  for (const s of steps)
    if (!grouped.has(s.name))
      out.push({ label: DEPLOY_STEP_LABELS[s.name] ?? s.name, steps: [s], status: s.status });
  return out;
}

function groupStatus(steps: Step[]): Step['status'] {
  if (steps.some((s) => s.status === 'failed')) return 'failed';
  if (steps.every((s) => s.status === 'done')) return 'done';
  if (steps.some((s) => s.status === 'running' || s.status === 'done')) return 'running';
  return 'pending';
}

/**
 * What a self-custody deploy left for the creator's wallet in Checks (docs/self-custody.md
 * "Deploy"): the dev allocation (`amount`, '0' for none) and the first buy's tokens (`firstBuy`).
 */
export interface AllocationClaim {
  wallet: SigningWallet;
  amount: string;
  firstBuy?: string;
  /** The dev allocation is locked in escrows by the claim. */
  locked: boolean;
}

/**
 * A self-custody creator's dev allocation and first buy (docs/self-custody.md "Deploy"): the job
 * left them in Checks from the issuer and the hot wallet; the wallet signs their claim (and the
 * allocation's locks) here. Until then the allocation is not locked, and the block says so.
 */
function ClaimAllocation({
  jobId,
  ticker,
  claim,
}: {
  jobId: string;
  ticker: string;
  claim: AllocationClaim;
}) {
  const queryClient = useQueryClient();
  const action = useLedgerAction((_: null, key) => claimAllocation(jobId, claim.wallet, key));
  const [done, setDone] = useState<DevAllocationResult>();
  const [error, setError] = useState<string>();
  const run = async () => {
    setError(undefined);
    try {
      const r = await action.run(null);
      if (!r) return;
      setDone(r);
      void queryClient.invalidateQueries({ queryKey: walletKeys.all() });
    } catch (err) {
      if (!(err instanceof SigningCancelledError)) setError(userMessage(err));
    }
  };
  const dev = new Decimal(claim.amount).gt(0);
  const buy = new Decimal(claim.firstBuy ?? 0).gt(0);
  if (done) {
    const parts = [
      ...(new Decimal(done.amount).gt(0)
        ? [
            `Dev allocation claimed: ${groupDigits(done.amount)} ${ticker}` +
              (done.locks.length > 0 ? `, ${done.locks.length} tranche(s) locked on the ledger.` : '.'),
          ]
        : []),
      ...(done.firstBuy ? [`First buy claimed: ${groupDigits(done.firstBuy)} ${ticker}.`] : []),
    ];
    return (
      <p className="deploy-message" role="status" data-testid="allocation-claimed">
        {parts.join(' ')}
      </p>
    );
  }
  const total = new Decimal(claim.amount).plus(claim.firstBuy ?? 0).toFixed();
  return (
    <div className="deploy-allocation" data-testid="allocation-claim">
      {dev && <p>{SELF_CUSTODY_MESSAGES.allocationUnlocked}</p>}
      {buy && <p>{SELF_CUSTODY_MESSAGES.firstBuyWaiting}</p>}
      <button type="button" onClick={() => void run()} disabled={action.busy} aria-busy={action.busy}>
        {action.busy
          ? 'Waiting for your wallet…'
          : claim.locked && buy
            ? `Claim ${groupDigits(total)} ${ticker}, locking ${groupDigits(claim.amount)}`
            : claim.locked
              ? `Claim and lock ${groupDigits(total)} ${ticker}`
              : `Claim ${groupDigits(total)} ${ticker}`}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function ProgressModal({
  jobId,
  ticker,
  claim,
}: {
  jobId: string;
  ticker: string;
  /** Set for a self-custody deploy with a dev allocation or first buy: the wallet claims them after the job. */
  claim?: AllocationClaim;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { status, timedOut } = useJobStatus<DeployResult>(jobId, {
    firstPollMs: DEPLOY_POLL_DELAY_MS,
    pollMs: DEPLOY_POLL_INTERVAL_MS,
    timeoutMs: DEPLOY_JOB_TIMEOUT_MS,
  });
  const network = useLedgerNetwork();
  const completed = status?.status === 'completed';
  useEffect(() => {
    if (!completed) return;
    // The new token shows on the home list, and the Token Dashboard menu entry appears, at once.
    void queryClient.invalidateQueries({ queryKey: listedTokenKeys.all() });
    void queryClient.invalidateQueries({ queryKey: sessionKeys.hasDeployed() });
    void queryClient.invalidateQueries({ queryKey: walletKeys.all() });
  }, [completed, queryClient]);

  const message =
    status?.status === 'completed'
      ? `Deployment completed: ${ticker} is live and listed.`
      : status?.status === 'failed'
        ? DEPLOY_MESSAGES.deploymentFailed(status.error ?? 'unknown error')
        : timedOut
          ? DEPLOY_MESSAGES.timedOut
          : `Deploying ${ticker}…`;
  const closable = /completed|failed/i.test(message) || timedOut;
  const result = status?.status === 'completed' ? status.result : null;
  const steps = status?.steps ?? [];
  const done = steps.filter((s) => s.status === 'done').length;
  const current =
    steps.find((s) => s.status === 'failed') ??
    steps.find((s) => s.status === 'running') ??
    steps.find((s) => s.status === 'pending');
  const groups = groupSteps(steps);

  return (
    <Modal
      open
      onOpenChange={(open) => !open && closable && navigate('/')}
      dismissible={closable}
      role="alertdialog"
      title="Deploying your token"
      className="deploy-progress"
    >
      <p className={status?.status === 'failed' || timedOut ? 'form-error' : 'deploy-message'} role="status">
        {message}
      </p>
      {steps.length > 0 && (
        <div className="deploy-count">
          <p data-testid="deploy-count">
            {completed
              ? `All ${steps.length} steps done`
              : `Step ${Math.min(done + 1, steps.length)} of ${steps.length}${
                  current ? `: ${DEPLOY_STEP_LABELS[current.name] ?? current.name}` : ''
                }`}
          </p>
          <progress max={steps.length} value={done} aria-label="Deployment progress" />
        </div>
      )}
      <ol className="deploy-steps" aria-label="Deployment steps">
        {groups.map((g) => (
          <li key={g.label} className={`deploy-step ${g.status}`} data-status={g.status}>
            <span className="deploy-step-icon" aria-hidden="true">
              {ICONS[g.status]}
            </span>
            <span className="deploy-step-label">
              {g.label}
              {g.steps.length > 1 && (
                <span className="muted small">
                  {' '}
                  · {g.steps.filter((s) => s.status === 'done').length} of {g.steps.length}, side by side
                </span>
              )}
            </span>
            {g.steps
              .filter((s) => s.txHash)
              .map((s) => (
                <TxHash key={s.name} hash={s.txHash!} network={network} />
              ))}
          </li>
        ))}
        {!status && <li className="deploy-step running">Starting…</li>}
      </ol>
      {(result || closable) && (
        <div className="deploy-footer">
          {result && (
            <div className="deploy-result">
              <p>
                Issuer <code className="deploy-issuer">{result.issuer_address}</code>{' '}
                <CopyButton
                  value={result.issuer_address}
                  label="Copy issuer address"
                  failedMessage="Failed to copy issuer address!"
                />
              </p>
              {claim && <ClaimAllocation jobId={jobId} ticker={ticker} claim={claim} />}
              <p className="deploy-links">
                <Link to={`/token/${result.issuer_address}`}>Open the token page</Link>
                <Link to="/dashboard">Manage it in the dashboard</Link>
              </p>
            </div>
          )}
          {closable && (
            <div className="modal-actions">
              <button type="button" onClick={() => navigate('/')}>
                Close
              </button>
            </div>
          )}
        </div>
      )}
    </Modal>
  );
}
