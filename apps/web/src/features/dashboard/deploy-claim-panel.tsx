import { toast } from 'sonner';
import { formatToken } from '@ledgerpad/shared';
import { userMessage } from '../../lib/api';
import { useWalletKinds } from '../../lib/wallet-kinds';
import { useClaimDeployChecks, useDeployClaim } from './api';

/**
 * A self-custody deploy's tokens still waiting in Checks for the creator's wallet (docs/self-custody.md
 * "Claiming later, from the dashboard"): the first buy (the hot wallet's Check) and a dev allocation
 * without vesting (the issuer's), as the server read them from the ledger, and the deploy modal's
 * very claim (`claimAllocation`: the wallet's line and one CheckCash each). Nothing when nothing
 * waits; an allocation with a schedule is claimed and locked from the schedule above.
 */
export function DeployClaimPanel({ tokenId, ticker }: { tokenId: number; ticker: string }) {
  const read = useDeployClaim(tokenId);
  const claim = useClaimDeployChecks(tokenId);
  const waiting = read.data?.claim ?? null;
  const info = useWalletKinds(waiting !== null).get(waiting?.walletAddress ?? '');
  if (!waiting) return null;
  const error = claim.isError ? userMessage(claim.error) : undefined;
  return (
    <section className="panel deploy-claim" aria-labelledby="deploy-claim-title" data-testid="deploy-claim">
      <h2 id="deploy-claim-title">Waiting for your wallet</h2>
      <div className="vesting-unclaimed">
        <p role="status">{waiting.text}</p>
      </div>
      <dl className="dashboard-facts">
        {waiting.allocation && (
          <div>
            <dt>Dev allocation</dt>
            <dd>
              {formatToken(waiting.allocation)} {ticker}
            </dd>
          </div>
        )}
        {waiting.firstBuy && (
          <div>
            <dt>First buy</dt>
            <dd>
              {formatToken(waiting.firstBuy)} {ticker}
            </dd>
          </div>
        )}
        <div className="wide">
          <dt>To</dt>
          <dd className="address">{waiting.walletAddress}</dd>
        </div>
      </dl>
      <button
        type="button"
        disabled={claim.isPending || !info}
        aria-busy={claim.isPending}
        onClick={() =>
          claim.mutate(
            {
              jobId: waiting.jobId,
              wallet: {
                wallet_address: waiting.walletAddress,
                kind: info!.kind,
                wallet_app: info!.app,
                wallet_name: info!.name,
              },
            },
            { onSuccess: () => toast.success(`Claimed your ${ticker} into your wallet`) },
          )
        }
      >
        {claim.isPending ? 'Waiting for your wallet…' : 'Claim with your wallet'}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
