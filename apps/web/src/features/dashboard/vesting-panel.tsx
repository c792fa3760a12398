import { useId } from 'react';
import { toast } from 'sonner';
import { formatToken, type VestingScheduleView, type VestingTrancheView } from '@ledgerpad/shared';
import { userMessage } from '../../lib/api';
import { VestingTable } from '../../components/vesting-table';
import { useWalletKinds } from '../../lib/wallet-kinds';
import { useClaimAllocation, useReleaseTranche, useSaveAutoRelease, useVestingSchedule } from './api';

// The dashboard's locked dev allocations (issue 28, docs/vesting.md): each tranche, its amount and
// unlock date, and its status as the ledger has it (an escrow still there, or gone because it was
// released); 'Release' on the due ones finishes the escrow into the same wallet, and 'Release
// automatically when due' lets the server's keeper do it after the ledger passes each unlock.

const STATUS_TEXT: Record<VestingTrancheView['status'], string> = {
  locked: 'Locked',
  due: 'Due',
  released: 'Released',
  missing: 'Not created',
};

/** The schedule of the token selected on the dashboard (issue 39: it sits with that token, not above the list). */
export function VestingPanel({ tokenId }: { tokenId: number }) {
  const schedule = useVestingSchedule();
  const release = useReleaseTranche();
  const tokens = (schedule.data?.tokens ?? []).filter((t) => t.tokenId === tokenId);
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
          {tok.unclaimed && <UnclaimedAllocation token={tok} />}
          <AutoReleaseToggle token={tok} />
          <div className="table-scroll">
            <VestingTable
              withStatus
              rows={tok.tranches.map((t) => {
                const busy =
                  release.isPending &&
                  release.variables?.tokenId === tok.tokenId &&
                  release.variables.escrowSequence === t.escrowSequence;
                return {
                  index: t.index,
                  amount: `${formatToken(t.amount)} ${tok.ticker}`,
                  unlockAt: t.unlockAt,
                  // Unclaimed (a self-custody creator's Check not cashed yet): not locked yet.
                  status: {
                    key: t.status,
                    text: tok.unclaimed && t.status === 'missing' ? 'Not locked yet' : STATUS_TEXT[t.status],
                  },
                  action: t.status === 'due' && t.escrowSequence !== null && (
                    <button
                      type="button"
                      disabled={release.isPending}
                      aria-busy={busy}
                      onClick={() =>
                        release.mutate(
                          { tokenId: tok.tokenId, escrowSequence: t.escrowSequence! },
                          {
                            onSuccess: (r) =>
                              toast.success(`Released ${formatToken(r.amount)} ${tok.ticker}`),
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
                  ),
                };
              })}
            />
          </div>
        </div>
      ))}
    </section>
  );
}

type ScheduleToken = VestingScheduleView['tokens'][number];

/**
 * A self-custody creator's allocation still in the issuer's Check (docs/self-custody.md "Deploy"):
 * the server's sentence that it is not locked, and the claim the wallet signs (its line, the
 * CheckCash, the escrows).
 */
function UnclaimedAllocation({ token }: { token: ScheduleToken }) {
  const claim = useClaimAllocation();
  const info = useWalletKinds().get(token.walletAddress);
  const error = claim.isError ? userMessage(claim.error) : undefined;
  return (
    <div className="vesting-unclaimed" data-testid="vesting-unclaimed">
      <p role="status">{token.unclaimed!.text}</p>
      <button
        type="button"
        disabled={claim.isPending || !info}
        aria-busy={claim.isPending}
        onClick={() =>
          claim.mutate({
            jobId: token.unclaimed!.jobId,
            wallet: {
              wallet_address: token.walletAddress,
              kind: info!.kind,
              wallet_app: info!.app,
              wallet_name: info!.name,
            },
          })
        }
      >
        {claim.isPending ? 'Waiting for your wallet…' : 'Claim and lock with your wallet'}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * 'Release automatically when due': a switch stored on the server (PUT
 * /api/dashboard/vesting/auto-release). Disabled while the change is being saved; a refused change
 * and the keeper's last failure are shown beside it.
 */
function AutoReleaseToggle({ token }: { token: ScheduleToken }) {
  const errorId = useId();
  const save = useSaveAutoRelease(token.tokenId);
  const checked = save.isPending ? save.variables : token.autoRelease;
  const error = save.isError ? userMessage(save.error) : token.autoReleaseError;
  return (
    <div className="vesting-auto">
      <label className="vesting-auto-switch">
        <input
          type="checkbox"
          role="switch"
          checked={checked}
          disabled={save.isPending}
          aria-busy={save.isPending}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => save.mutate(e.target.checked)}
        />
        Release automatically when due
      </label>
      {error && (
        <p id={errorId} className="vesting-auto-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
