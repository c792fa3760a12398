import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { VestingReleaseResult, VestingScheduleView, VestingTrancheView } from '@ledgerpad/shared';
import { apiGet, apiPost, userMessage } from '../../lib/api';
import { useLedgerMutation } from '../../lib/ledger-mutation';
import { groupDigits } from './api';

// The dashboard's locked dev allocations (issue 28, docs/vesting.md): each tranche, its amount and
// unlock date, and its status as the ledger has it (an escrow still there, or gone because it was
// released); 'Release' on the due ones finishes the escrow into the same wallet.

const vestingKey = ['dashboard', 'vesting'] as const;

const STATUS_TEXT: Record<VestingTrancheView['status'], string> = {
  locked: 'Locked',
  due: 'Due',
  released: 'Released',
  missing: 'Not created',
};

const when = (iso: string) => iso.slice(0, 16).replace('T', ' ') + ' UTC';

export function VestingPanel() {
  const schedule = useQuery({
    queryKey: vestingKey,
    queryFn: ({ signal }) => apiGet<VestingScheduleView>('/api/dashboard/vesting', { signal }),
    // A tranche becomes due with time: read the ledger again now and then.
    refetchInterval: 15_000,
  });
  const queryClient = useQueryClient();
  const release = useLedgerMutation(
    (vars: { tokenId: number; escrowSequence: number }, key) =>
      apiPost<VestingReleaseResult>('/api/dashboard/vesting/release', vars, { idempotencyKey: key() }),
    { onSettled: () => void queryClient.invalidateQueries({ queryKey: vestingKey }) },
  );
  const tokens = schedule.data?.tokens ?? [];
  if (!schedule.isPending && tokens.length === 0) return null;
  return (
    <section className="panel vesting-panel" aria-labelledby="vesting-title" data-testid="vesting-panel">
      <h2 id="vesting-title">Dev allocation schedule</h2>
      <p className="muted small">
        Locked in escrows on the XRP Ledger from your wallet to itself; status read from the ledger.
      </p>
      {schedule.isPending && (
        <p className="muted" aria-busy="true">
          Reading your escrows from the ledger…
        </p>
      )}
      {tokens.map((tok) => (
        <div key={tok.tokenId} className="vesting-token">
          <h3>
            {tok.ticker} <span className="muted small address">{tok.walletAddress}</span>
          </h3>
          <div className="table-scroll">
            <table className="vesting-table">
              <thead>
                <tr>
                  <th>Tranche</th>
                  <th>Amount</th>
                  <th>Unlocks</th>
                  <th>Status</th>
                  <th aria-label="Action" />
                </tr>
              </thead>
              <tbody>
                {tok.tranches.map((t) => {
                  const busy =
                    release.isPending &&
                    release.variables?.tokenId === tok.tokenId &&
                    release.variables.escrowSequence === t.escrowSequence;
                  return (
                    <tr key={t.index} data-status={t.status}>
                      <td>{t.index}</td>
                      <td>
                        {groupDigits(t.amount)} {tok.ticker}
                      </td>
                      <td>{when(t.unlockAt)}</td>
                      <td>
                        <span className={`vesting-status vesting-${t.status}`}>{STATUS_TEXT[t.status]}</span>
                      </td>
                      <td>
                        {t.status === 'due' && t.escrowSequence !== null && (
                          <button
                            type="button"
                            disabled={release.isPending}
                            aria-busy={busy}
                            onClick={() =>
                              release.mutate(
                                { tokenId: tok.tokenId, escrowSequence: t.escrowSequence! },
                                {
                                  onSuccess: (r) =>
                                    toast.success(`Released ${groupDigits(r.amount)} ${tok.ticker}`),
                                  onError: (err) =>
                                    toast.error('Could not release the tranche.', {
                                      description: userMessage(err),
                                    }),
                                },
                              )
                            }
                          >
                            {busy ? 'Releasing…' : 'Release'}
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
      ))}
    </section>
  );
}
