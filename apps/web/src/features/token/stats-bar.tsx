import { statFigure, type TokenStatsView } from '@ledgerpad/shared';

// The token stats bar (spec 000 §2): 'Market Cap' always; 'Liquidity' and 'Holders' for tokens not
// on a bonding curve. 'Loading...' until the figures arrive, 'N/A' for a missing number, no decimals.

export function StatsBar({ stats, bonding }: { stats: TokenStatsView | undefined; bonding: boolean }) {
  const items: Array<{ label: string; value: string }> = [
    { label: 'Market Cap', value: stats ? statFigure(stats.marketCapInUSD, true) : 'Loading...' },
  ];
  if (!bonding) {
    items.push(
      { label: 'Liquidity', value: stats ? statFigure(stats.liquidityUSD, true) : 'Loading...' },
      { label: 'Holders', value: stats ? statFigure(stats.holders, false) : 'Loading...' },
    );
  }
  return (
    <dl className="stats-bar" data-testid="stats-bar">
      {items.map((i) => (
        <div key={i.label} className="stat">
          <dt>{i.label}</dt>
          <dd>{i.value}</dd>
        </div>
      ))}
    </dl>
  );
}
