import {
  Decimal,
  ammFeeToTradingFee,
  devAllocationAmount,
  dropsToXrp,
  firstBuyPreview,
  formatCount,
  formatFull,
  formatPrice,
  formatToken,
  formatXrp,
} from '@ledgerpad/shared';

// The preview's launch figures (issue 37, docs/launch-protection.md): the pool's opening price and
// the market cap at it, what the creator holds once the deploy is done — the escrowed dev allocation
// (locked) and the rest plus the first buy (unlocked) — and what the first buy costs. Worked out by
// the shared `firstBuyPreview`, the same function the server signs the buy's DeliverMin from.

export interface LaunchFiguresProps {
  supply: string;
  devAllocation: string;
  /** The dev allocation is locked in escrows at deploy (docs/vesting.md). */
  locked: boolean;
  liquidityAmount: string;
  pair: 'XRP' | 'RLUSD';
  ammFee: string;
  /** The first buy in XRP ('' for none). */
  firstBuyXrp: string;
  /** The platform's trading fee in percent. */
  feePercent: string;
  ticker: string;
  /**
   * An anti-sniper window (its pre-pool ladder): the first buy is the ladder's plain price, paid out
   * before its first offer, not a swap out of the pool (docs/launch-protection.md).
   */
  window?: { steps: number; fineSteps: number };
}

export function LaunchFigures(p: LaunchFiguresProps) {
  const dev = devAllocationAmount(p.supply, p.devAllocation);
  const f = firstBuyPreview({
    liquidityXrp: p.liquidityAmount,
    poolTokens: new Decimal(p.supply).minus(dev),
    supply: p.supply,
    devAmount: dev,
    lockedAmount: p.locked ? dev : 0,
    buyXrp: p.pair === 'XRP' ? p.firstBuyXrp : '',
    tradingFee: ammFeeToTradingFee(p.ammFee),
    feePercent: p.feePercent,
    ...(p.window ? { window: p.window } : {}),
  });
  return (
    <dl className="deploy-facts" data-testid="launch-figures">
      <dt>Starting price</dt>
      <dd data-testid="start-price">
        {formatPrice(f.startPrice.toFixed())} {p.pair} per {p.ticker}
      </dd>
      <dt>Market cap at that price</dt>
      <dd data-testid="market-cap">
        {formatXrp(f.marketCap.toFixed())} {p.pair}
      </dd>
      {f.buyDrops > 0n && (
        <>
          <dt>Your first buy</dt>
          <dd data-testid="first-buy-cost">
            {dropsToXrp(f.buyDrops)} XRP + {dropsToXrp(f.feeDrops)} XRP platform fee ({p.feePercent}%) ={' '}
            {dropsToXrp(f.totalDrops)} XRP,{' '}
            {p.window
              ? 'at the ladder’s plain price before its first offer: no one can buy before you'
              : 'in the pool’s own transaction: no one can buy before you'}
          </dd>
          <dt>Tokens it buys</dt>
          <dd data-testid="first-buy-tokens">
            {/* Token amounts at 6 decimals at most (docs/number-format.md); every digit in the tooltip. */}
            <span className="figure" title={`${formatFull(f.tokensOut.toFixed())} ${p.ticker}`}>
              {formatToken(f.tokensOut.toFixed())}
            </span>{' '}
            {p.ticker}
          </dd>
        </>
      )}
      <dt>You will hold</dt>
      <dd data-testid="creator-holds">
        {formatCount(f.creatorLocked.plus(f.creatorUnlocked).toFixed())} {p.ticker}:{' '}
        <span title={formatFull(f.creatorLocked.toFixed())}>{formatToken(f.creatorLocked.toFixed())}</span>{' '}
        locked,{' '}
        <span title={formatFull(f.creatorUnlocked.toFixed())}>
          {formatToken(f.creatorUnlocked.toFixed())}
        </span>{' '}
        unlocked
      </dd>
    </dl>
  );
}
