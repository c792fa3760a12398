import {
  ESCROW_STATE_TEXT,
  formatToken,
  shortAddress,
  type DevLockView,
  type HolderCluster,
  type RiskReport,
} from '@ledgerpad/shared';
import { explorerTxUrl, useLedgerNetwork } from '../../lib/auth-methods';

// What a buyer should know before trading, read from the ledger by the server (issue 24): the
// verdict names the worst signals and takes their colour; each signal shows its value and one
// sentence of consequence, red, amber, green or plain; holders leave out the issuer, AMM pools,
// bonding curves and Ledgerpad's own accounts, and the panel says so.

export function RiskPanel({
  risk,
  loading,
  failed,
}: {
  risk: RiskReport | undefined;
  loading: boolean;
  failed: boolean;
}) {
  return (
    <section className="panel risk-panel" aria-labelledby="risk-title" data-testid="risk-panel">
      <h2 id="risk-title" className="panel-title">
        Risk check
      </h2>
      {loading ? (
        <p className="muted">Checking the issuer…</p>
      ) : failed || !risk ? (
        <p className="muted">The risk check could not be loaded.</p>
      ) : (
        <>
          <p className={`risk-verdict ${risk.level}`} data-testid="risk-verdict" data-level={risk.level}>
            {risk.verdict}
          </p>
          <dl className="risk-facts">
            {risk.signals.map((s) => (
              <div key={s.id} className={`risk-fact ${s.severity}`} data-testid={`risk-${s.id}`}>
                <dt>{s.label}</dt>
                <dd>{s.value}</dd>
                <p className="risk-sentence">{s.sentence}</p>
                {s.id === 'dev-allocation' && risk.devLock && risk.devLock.escrows.length > 0 && (
                  <EscrowList lock={risk.devLock} />
                )}
                {s.id === 'holder-clusters' && risk.clusters && risk.clusters.length > 0 && (
                  <ClusterList clusters={risk.clusters} />
                )}
              </div>
            ))}
          </dl>
          <p className="risk-note">
            Holders: {risk.holders}, not counting{' '}
            {risk.excluded.map((e, i) => (
              <span key={e.account} title={e.account}>
                {i > 0 ? ', ' : ''}
                {e.label === 'Issuer' ? 'the issuer' : e.label}
              </span>
            ))}
            .
          </p>
        </>
      )}
    </section>
  );
}

/**
 * The deployer's escrows, each linked to the transaction that created it on the explorer, with what
 * it guarantees now (issue 35): 'locked' only with an unlock date ahead and no condition.
 */
function EscrowList({ lock }: { lock: DevLockView }) {
  const network = useLedgerNetwork();
  return (
    <ul className="risk-escrows" aria-label="The deployer’s escrows of this token" data-testid="risk-escrows">
      {lock.escrows.map((e) => {
        const url = explorerTxUrl(network, e.createdBy);
        // Older servers sent no state: a date is all they knew.
        const state = e.state ?? 'locked';
        const when = e.finishAfter
          ? `until ${e.finishAfter.slice(0, 10)}`
          : e.cancelAfter
            ? `cancellable after ${e.cancelAfter.slice(0, 10)}`
            : '';
        const label = `${formatToken(e.amount)} ${state === 'locked' ? when : `— ${ESCROW_STATE_TEXT[state]}`}`;
        return (
          <li key={e.index} className={`escrow-${state}`} data-state={state}>
            {url ? (
              <a href={url} target="_blank" rel="noreferrer">
                {label}
              </a>
            ) : (
              <span title={`Escrow ${e.index}, created by ${e.createdBy}`}>{label}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** Top holders funded together: each group with its wallets' count, funder and combined share. */
function ClusterList({ clusters }: { clusters: HolderCluster[] }) {
  return (
    <ul className="risk-clusters" aria-label="Holders funded together" data-testid="risk-clusters">
      {clusters.map((c) => (
        <li key={c.accounts[0]} title={c.accounts.join('\n')}>
          {c.accounts.length} wallets{' '}
          {c.funder ? `funded by ${shortAddress(c.funder)}` : 'funding one another'}:{' '}
          <strong>{c.sharePercent}%</strong>
        </li>
      ))}
    </ul>
  );
}
