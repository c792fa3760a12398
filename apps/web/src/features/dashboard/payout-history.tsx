import type { TokenView } from '@ledgerpad/shared';
import { CopyButton } from '../../components/copy-button';
import { groupDigits, shortAddress } from './api';
import { LoadError } from './load-error';
import { useRewardPayouts } from './rewards';

const STATUS_WORDS = { pending: 'Paying…', paid: 'Paid', failed: 'Failed — returned to unclaimed' } as const;

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
        <LoadError
          message="Could not load the payouts."
          error={payouts.error}
          onRetry={() => void payouts.refetch()}
        />
      ) : payouts.data.length === 0 ? (
        <p className="empty-state">No rewards paid out yet. Claims appear here with their transactions.</p>
      ) : (
        <div className="table-scroll">
          <table className="payout-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Recipient</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">Transaction</th>
              </tr>
            </thead>
            <tbody>
              {payouts.data.map((p) => (
                <tr key={p.id}>
                  <td data-label="Time">
                    <time dateTime={p.updated_at}>{new Date(p.updated_at).toLocaleString()}</time>
                  </td>
                  <td data-label="Recipient">
                    <span className="address" title={p.address}>
                      {shortAddress(p.address)}
                    </span>
                  </td>
                  <td data-label="Amount" className="num">
                    {groupDigits(p.amount)} {p.currency}
                  </td>
                  <td data-label="Status" className={`payout-${p.status}`}>
                    {STATUS_WORDS[p.status]}
                  </td>
                  <td data-label="Transaction">
                    {p.hash ? (
                      <span className="dashboard-account">
                        <span className="address" title={p.hash}>
                          {p.hash.slice(0, 8)}…{p.hash.slice(-6)}
                        </span>
                        <CopyButton
                          value={p.hash}
                          label="Copy transaction hash"
                          copiedMessage="Hash copied"
                          failedMessage="Failed to copy the hash."
                        />
                      </span>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
