import { ADMIN_MESSAGES, displayTicker, Decimal } from '@ledgerpad/shared';
import { LoadFailed } from '../../components/load-failed';
import { useReferralsOverview, useRewardsOverview } from './api';

/** reward − claimed, exactly (decimal strings from the server). */
function unclaimed(totalReward: string, totalClaimed: string): string {
  try {
    return new Decimal(totalReward || 0).minus(totalClaimed || 0).toFixed();
  } catch {
    return '0';
  }
}

/** Creator rewards per token: total, claimed and what is still owed; then the referral programme. */
export function RewardsTab() {
  return (
    <div className="admin-stack">
      <CreatorRewards />
      <ReferralTotals />
    </div>
  );
}

function CreatorRewards() {
  const rewards = useRewardsOverview();
  return (
    <section className="panel" aria-labelledby="admin-rewards-heading">
      <h2 id="admin-rewards-heading">Creator rewards</h2>
      {rewards.isPending ? (
        <p className="muted" aria-busy="true">
          Loading rewards…
        </p>
      ) : rewards.isError ? (
        <LoadFailed message={ADMIN_MESSAGES.fetchRewardsFailed} onRetry={() => void rewards.refetch()} />
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

/** The referral programme: earned and claimed per currency, and every referrer (docs/referrals.md). */
function ReferralTotals() {
  const overview = useReferralsOverview();
  return (
    <section className="panel" aria-labelledby="admin-referrals-heading">
      <h2 id="admin-referrals-heading">Referrals</h2>
      {overview.isPending ? (
        <p className="muted" aria-busy="true">
          Loading referrals…
        </p>
      ) : overview.isError ? (
        <LoadFailed message="Failed to fetch referrals." onRetry={() => void overview.refetch()} />
      ) : (
        <>
          <dl className="admin-referral-totals">
            <div>
              <dt>Referred users</dt>
              <dd data-testid="referred-users">{overview.data.referred_users}</dd>
            </div>
            {overview.data.totals.flatMap((t) => [
              <div key={`${t.currency}-earned`}>
                <dt>Earned ({t.currency})</dt>
                <dd>{t.earned}</dd>
              </div>,
              <div key={`${t.currency}-claimed`}>
                <dt>Claimed ({t.currency})</dt>
                <dd>{t.claimed}</dd>
              </div>,
              <div key={`${t.currency}-owed`}>
                <dt>Owed to referrers ({t.currency})</dt>
                <dd data-testid={`referral-owed-${t.currency}`}>{unclaimed(t.earned, t.claimed)}</dd>
              </div>,
            ])}
          </dl>
          {overview.data.referrers.length === 0 ? (
            <p className="empty-state">Nobody has signed up through a referral link yet.</p>
          ) : (
            <div className="table-scroll admin-table-wrap">
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">Referrer</th>
                    <th scope="col">Code</th>
                    <th scope="col" className="num">
                      Referred
                    </th>
                    <th scope="col" className="num">
                      Earned XRP
                    </th>
                    <th scope="col" className="num">
                      Claimed XRP
                    </th>
                    <th scope="col" className="num">
                      Earned RLUSD
                    </th>
                    <th scope="col" className="num">
                      Claimed RLUSD
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {overview.data.referrers.map((r) => (
                    <tr key={r.user_id}>
                      <td>
                        #{r.user_id} {r.username ?? ''}
                      </td>
                      <td>{r.code ?? '—'}</td>
                      <td className="num">{r.referred}</td>
                      <td className="num">{r.earned_xrp}</td>
                      <td className="num">{r.claimed_xrp}</td>
                      <td className="num">{r.earned_rlusd}</td>
                      <td className="num">{r.claimed_rlusd}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
