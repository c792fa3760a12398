import { statFigure, statFigureFull, type TokenStatsView } from '@ledgerpad/shared';

// The token stats bar (spec 000 §2): 'Market Cap' always; 'Liquidity' and 'Holders' for tokens not
// on a bonding curve. 'Loading...' until the figures arrive, 'N/A' for a missing number; dollars
// compact ('$8.4K', the one number format) with the full figure in the tooltip.

export function StatsBar({ stats, bonding }: { stats: TokenStatsView | undefined; bonding: boolean }) {
  const item = (label: string, value: unknown, dollars: boolean) => ({
    label,
    value: stats ? statFigure(value, dollars) : 'Loading...',
    full: stats ? statFigureFull(value, dollars) : undefined,
  });
  const items = [item('Market Cap', stats?.marketCapInUSD, true)];
  if (!bonding) {
    items.push(item('Liquidity', stats?.liquidityUSD, true), item('Holders', stats?.holders, false));
  }
  return (
    <dl className="stats-bar" data-testid="stats-bar">
      {items.map((i) => (
        <div key={i.label} className="stat">
          <dt>{i.label}</dt>
          <dd className="figure" title={i.full}>
            {i.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
