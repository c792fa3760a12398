import { describe, expect, it } from 'vitest';
import { ammSwapOut, Decimal, firstBuyTradingFee } from '@ledgerpad/shared';
// The embedded ledger's AMM math (a faithful port of rippled's AMMHelpers and Number), read
// directly: the first buy's DeliverMin must never be above what the ledger's swap gives, or the
// buy fails and rolls the pool's whole Batch back (docs/launch-protection.md).
import { swapAssetIn } from '../../../../packages/xrpl-standalone/src/amm/math';
import { Num } from '../../../../packages/xrpl-standalone/src/core/number';

const XRP = { currency: 'XRP', issuer: '' };
const TOKEN = { currency: 'TST', issuer: 'rrrrrrrrrrrrrrrrrrrrrhoLvTp' };

function ledgerOut(poolDrops: bigint, poolTokens: bigint, inDrops: bigint, fee: number): Decimal {
  const pool = {
    in: { issue: XRP, value: Num.from(poolDrops) },
    out: { issue: TOKEN, value: Num.from(poolTokens) },
  };
  return new Decimal(swapAssetIn(pool, { issue: XRP, value: Num.from(inDrops) }, fee).value.toString());
}

// A small deterministic generator: the same cases on every run.
function* cases(n: number): Generator<[bigint, bigint, bigint, number]> {
  let seed = 0x2f6b_1d3an;
  const next = (max: bigint): bigint => {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
    return (seed >> 16n) % max;
  };
  for (let i = 0; i < n; i++) {
    const poolDrops = 10_000_000n + next(10_000_000_000_000n); // 10 XRP … 10M XRP
    const poolTokens = 1_000n + next(100_000_000_000_000n); // up to 10^14 tokens
    const inDrops = 1n + next(poolDrops); // up to the pool's own XRP
    yield [poolDrops, poolTokens, inDrops, firstBuyTradingFee(Number(next(1001n)))];
  }
}

describe('the first buy’s swap-out against the ledger’s own math', () => {
  it('the case that rolled a demo launch back: 2,500 XRP, 490M tokens, 10 XRP in at 0.05%', () => {
    const ours = ammSwapOut('2500000000', '490000000', '10000000', 50);
    const ledger = ledgerOut(2_500_000_000n, 490_000_000n, 10_000_000n, 50);
    // The exact formula gives 1951219.02633272…; the ledger's 16-digit steps lose the last digits.
    expect(ledger.toFixed()).toBe('1951219.0263327');
    expect(ours.toFixed()).toBe(ledger.toFixed());
  });

  it('is never above the ledger and short of it by less than the pool’s own last digits, over 2,000 pools', () => {
    for (const [poolDrops, poolTokens, inDrops, fee] of cases(2_000)) {
      const ours = ammSwapOut(poolDrops.toString(), poolTokens.toString(), inDrops.toString(), fee);
      const ledger = ledgerOut(poolDrops, poolTokens, inDrops, fee);
      expect(ours.lte(ledger), `${poolDrops} ${poolTokens} ${inDrops} ${fee}: ${ours} > ${ledger}`).toBe(
        true,
      );
      // B − ratio keeps B's 16 digits at best: what a step rounds at B's 15th digit may differ.
      const unit = new Decimal(10).pow(Math.max(ledger.e, new Decimal(poolTokens.toString()).e) - 14);
      expect(ledger.minus(ours).lte(unit), `${ours} far below ${ledger}`).toBe(true);
    }
  });
});
