import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import {
  DEPLOY_JOB_TIMEOUT_MS,
  DEPLOY_MESSAGES,
  DEPLOY_POLL_DELAY_MS,
  DEPLOY_POLL_INTERVAL_MS,
  DEPLOY_STEP_LABELS,
  type DeployResult,
  type JobStatusView,
} from '@ledgerpad/shared';
import { CopyButton } from '../../components/copy-button';
import { Modal } from '../../components/modal';
import { explorerTxUrl, useLedgerNetwork, type LedgerNetwork } from '../../lib/auth-methods';
import { onSocketEvent } from '../../lib/live-socket';
import { getJobStatus } from './api';

// The deployment progress modal (spec 001 §2, §4): each step of the job live — from the socket at
// once, with the spec's polling as the fallback (first after 3 s, then every 5 s, giving up after
// 5 minutes). Close appears when the message says 'completed' or 'failed' and returns to '/'.

type Status = JobStatusView<DeployResult>;

const isFinal = (s: Status | undefined) => s?.status === 'completed' || s?.status === 'failed';

function useDeployJob(jobId: string): { status: Status | undefined; timedOut: boolean } {
  const [status, setStatus] = useState<Status>();
  const [timedOut, setTimedOut] = useState(false);
  const final = useRef(false);
  useEffect(() => {
    let stopped = false;
    const accept = (s: Status) => {
      if (final.current) return;
      final.current = isFinal(s);
      setStatus(s);
    };
    const off = onSocketEvent('jobUpdated', (data) => {
      if (data.jobId === jobId) accept(data as Status);
    });
    const deadline = Date.now() + DEPLOY_JOB_TIMEOUT_MS;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      if (stopped || final.current) return;
      try {
        accept(await getJobStatus(jobId));
      } catch {
        // A failed poll is retried on the next tick; the socket may still deliver.
      }
      if (stopped || final.current) return;
      if (Date.now() >= deadline) {
        setTimedOut(true);
        return;
      }
      timer = setTimeout(() => void poll(), DEPLOY_POLL_INTERVAL_MS);
    };
    timer = setTimeout(() => void poll(), DEPLOY_POLL_DELAY_MS);
    return () => {
      stopped = true;
      off();
      clearTimeout(timer);
    };
  }, [jobId]);
  return { status, timedOut };
}

const ICONS = { pending: '○', running: '◌', done: '✓', failed: '✕' } as const;

/** A step's transaction: a link to the network's explorer, or (embedded ledger) the hash to copy. */
function TxHash({ hash, network }: { hash: string; network: LedgerNetwork | undefined }) {
  const short = `${hash.slice(0, 6)}…${hash.slice(-4)}`;
  const url = explorerTxUrl(network, hash);
  return (
    <span className="deploy-step-tx">
      {url ? (
        <a href={url} target="_blank" rel="noopener noreferrer" title={hash}>
          {short}
        </a>
      ) : (
        <>
          <code title={hash}>{short}</code>
          <CopyButton value={hash} label="Copy transaction hash" failedMessage="Failed to copy." />
        </>
      )}
    </span>
  );
}

export function ProgressModal({ jobId, ticker }: { jobId: string; ticker: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { status, timedOut } = useDeployJob(jobId);
  const network = useLedgerNetwork();
  const completed = status?.status === 'completed';
  useEffect(() => {
    if (!completed) return;
    // The new token shows on the home list, and the Token Dashboard menu entry appears, at once.
    void queryClient.invalidateQueries({ queryKey: ['tokens'] });
    void queryClient.invalidateQueries({ queryKey: ['has-deployed'] });
    void queryClient.invalidateQueries({ queryKey: ['wallets'] });
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
      <ol className="deploy-steps" aria-label="Deployment steps">
        {(status?.steps ?? []).map((step) => (
          <li
            key={step.name}
            className={`deploy-step ${step.status}`}
            data-step={step.name}
            data-status={step.status}
          >
            <span className="deploy-step-icon" aria-hidden="true">
              {ICONS[step.status]}
            </span>
            <span className="deploy-step-label">{DEPLOY_STEP_LABELS[step.name] ?? step.name}</span>
            {step.txHash && <TxHash hash={step.txHash} network={network} />}
          </li>
        ))}
        {!status && <li className="deploy-step running">Starting…</li>}
      </ol>
      {result && (
        <div className="deploy-result">
          <p>
            Issuer <code>{result.issuer_address}</code>{' '}
            <CopyButton
              value={result.issuer_address}
              label="Copy issuer address"
              failedMessage="Failed to copy issuer address!"
            />
          </p>
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
    </Modal>
  );
}
