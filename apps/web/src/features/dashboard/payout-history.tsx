import type { TokenView } from '@ledgerpad/shared';
import { PaymentsTable } from '../../components/payments-table';
import { groupDigits, useRewardPayouts } from './api';
import { LoadFailed } from '../../components/load-failed';

/**
 * Every payment of the token's reward claims (issue 37): when, to whom, how much, and the ledger
 * transaction. A failed payment's amount went back to the unclaimed reward.
 */
export function PayoutHistory({ token }: { token: TokenView }) {
  const payouts = useRewardPayouts(token.id);
  return (
    <section className="panel" aria-labelledby="payouts-title">
      <h2 id="payouts-title">Payout history</h2>
      {payouts.isPending ? (
        <p className="muted" aria-busy="true">
          Loading payouts…
        </p>
      ) : payouts.isError ? (
        <LoadFailed
          className="error-inline"
          message="Could not load the payouts."
          error={payouts.error}
          onRetry={() => void payouts.refetch()}
        />
      ) : payouts.data.length === 0 ? (
        <p className="empty-state">No rewards paid out yet. Claims appear here with their transactions.</p>
      ) : (
        <PaymentsTable
          rows={payouts.data.map((p) => ({
            id: p.id,
            at: p.updated_at,
            address: p.address,
            amount: `${groupDigits(p.amount)} ${p.currency}`,
            status: p.status,
            hash: p.hash,
          }))}
        />
      )}
    </section>
  );
}
