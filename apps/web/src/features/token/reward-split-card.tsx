import { bpsToPercent, shortAddress } from '@ledgerpad/shared';
import { useRewardSplit } from './api';

/**
 * Where this token's creator rewards go (issue 37, docs/rewards.md "Splits"): the creator's split and
 * every change to it, public like the payments it leads to. Shown only for a token that has (or had)
 * a split.
 */
export function RewardSplitCard({ tokenId }: { tokenId: number }) {
  const split = useRewardSplit(tokenId);
  const view = split.data;
  if (!view || (view.recipients.length === 0 && view.history.length === 0)) return null;
  return (
    <section className="panel" aria-labelledby="reward-split-title">
      <h2 id="reward-split-title" className="panel-title">
        Creator rewards split
      </h2>
      {view.recipients.length === 0 ? (
        <p className="muted small">The creator receives the rewards (the split was removed).</p>
      ) : (
        <ul className="token-split">
          {view.recipients.map((r) => (
            <li key={r.address}>
              <span className="address" title={r.address}>
                {shortAddress(r.address)}
              </span>
              <span>{bpsToPercent(r.bps)}%</span>
            </li>
          ))}
        </ul>
      )}
      <details className="token-split-history">
        <summary>Changes ({view.history.length})</summary>
        <ol>
          {view.history.map((h) => (
            <li key={h.at}>
              <time dateTime={h.at}>{new Date(h.at).toLocaleDateString()}</time>:{' '}
              {h.after.length === 0
                ? 'removed'
                : h.after.map((r) => `${shortAddress(r.address)} ${bpsToPercent(r.bps)}%`).join(', ')}
            </li>
          ))}
        </ol>
      </details>
    </section>
  );
}
