import { ADMIN_MESSAGES, displayTicker, Decimal } from '@ledgerpad/shared';
import { useRewardsOverview } from './api';

/** reward − claimed, exactly (decimal strings from the server). */
function unclaimed(totalReward: string, totalClaimed: string): string {
  try {
    return new Decimal(totalReward || 0).minus(totalClaimed || 0).toFixed();
  } catch {
    return '0';
  }
}

/** Creator rewards per token: total, claimed and what is still owed. */
export function RewardsTab() {
  const rewards = useRewardsOverview();
  return (
    <section className="panel" aria-labelledby="admin-rewards-heading">
      <h2 id="admin-rewards-heading">Creator rewards</h2>
      {rewards.isPending ? (
        <p className="muted" aria-busy="true">
          Loading rewards…
        </p>
      ) : rewards.isError ? (
        <div role="alert">
          <p className="form-error">{ADMIN_MESSAGES.fetchRewardsFailed}</p>
          <button type="button" className="btn-secondary" onClick={() => void rewards.refetch()}>
            Retry
          </button>
        </div>
      ) : rewards.data.length === 0 ? (
        <p className="empty-state">No token has creator rewards yet.</p>
      ) : (
        <div className="table-scroll admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Token</th>
                <th scope="col">Issuer</th>
                <th scope="col" className="num">
                  Total reward
                </th>
                <th scope="col" className="num">
                  Claimed
                </th>
                <th scope="col" className="num">
                  Unclaimed
                </th>
              </tr>
            </thead>
            <tbody>
              {rewards.data.map((r) => (
                <tr key={r.token_id}>
                  <td>{displayTicker(r.ticker)}</td>
                  <td className="address">{r.issuer_address}</td>
                  <td className="num">
                    {r.total_reward} {r.reward_currency}
                  </td>
                  <td className="num">
                    {r.total_claimed} {r.reward_currency}
                  </td>
                  <td className="num" data-testid={`unclaimed-${r.token_id}`}>
                    {unclaimed(r.total_reward, r.total_claimed)} {r.reward_currency}
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
