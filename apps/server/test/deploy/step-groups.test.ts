import { describe, expect, it } from 'vitest';
import { DEPLOY_STEP_GROUPS } from '@ledgerpad/shared';
import { planCurveLaunch, planDeploy } from '../../src/modules/deploy/plan';

// The progress modal shows steps of one group as one line because the deploy runs them side by
// side: no step of a group may wait (directly or through others) for another of the same group, in
// any plan the deploy makes. And every step a plan makes belongs to exactly one group.

const R = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const RLUSD = { currency: '524C555344000000000000000000000000000000', issuer: R };

function plans() {
  const out: Array<{ name: string; steps: ReturnType<typeof planDeploy> }> = [];
  for (const requireAuth of [false, true])
    for (const dev of [false, true])
      for (const rlusd of [false, true])
        for (const blackhole of [false, true])
          for (const burnLp of [false, true])
            for (const buy of rlusd ? ['none'] : ['none', 'batch', 'steps'])
              // Funded from a self-custody wallet (docs/self-custody.md "Deploy"), RLUSD pairs too.
              for (const selfFunded of [false, true])
                out.push({
                  name: `amm requireAuth=${requireAuth} dev=${dev} rlusd=${rlusd} blackhole=${blackhole} burnLp=${burnLp} locked=${dev} firstBuy=${buy} selfFunded=${selfFunded}`,
                  steps: planDeploy({
                    selfFunded,
                    userAddress: R,
                    issuerAddress: R,
                    hotAddress: R,
                    feeAddress: R,
                    currency: 'TST',
                    supply: '1000',
                    devAmount: dev ? '10' : '0',
                    hotAmount: dev ? '990' : '1000',
                    pair: rlusd ? 'RLUSD' : 'XRP',
                    liquidity: rlusd ? '100' : '100000000',
                    rlusd: rlusd ? RLUSD : null,
                    tradingFee: 300,
                    requireAuth,
                    blackhole,
                    burnLp,
                    issuerFundDrops: '1100000',
                    hotFundDrops: '2000000',
                    serviceFeeDrops: '15000000',
                    // The dev allocation locked in 13 escrows (the most a schedule makes).
                    vesting: dev
                      ? Array.from({ length: 13 }, (_, i) => ({
                          index: i + 1,
                          amount: '0.5',
                          unlockAt: 1000 + i,
                        }))
                      : null,
                    // The creator's first buy: in the pool's Batch, or as steps after it (no Batch).
                    firstBuy:
                      buy === 'none'
                        ? null
                        : { drops: '10000000', feeDrops: '75000', deliverMin: '1', batch: buy === 'batch' },
                  }),
                });
  // An instant launch's anti-sniper window (docs/launch-protection.md): custodial, XRP, LP burned,
  // issuer blackholed; no pool in the plan, the first buy paid out of the curve account.
  for (const dev of [false, true])
    for (const buy of [false, true])
      out.push({
        name: `window dev=${dev} locked=${dev} firstBuy=${buy}`,
        steps: planDeploy({
          window: true,
          userAddress: R,
          issuerAddress: R,
          hotAddress: R,
          feeAddress: R,
          currency: 'TST',
          supply: '1000',
          devAmount: dev ? '10' : '0',
          hotAmount: dev ? '990' : '1000',
          pair: 'XRP',
          liquidity: '100000000',
          rlusd: null,
          tradingFee: 300,
          requireAuth: false,
          blackhole: true,
          burnLp: true,
          issuerFundDrops: '1100000',
          hotFundDrops: '117300000',
          serviceFeeDrops: '15000000',
          vesting: dev
            ? Array.from({ length: 13 }, (_, i) => ({ index: i + 1, amount: '0.5', unlockAt: 1000 + i }))
            : null,
          firstBuy: buy ? { drops: '10000000', feeDrops: '75000', deliverMin: '90.5', batch: false } : null,
        }),
      });
  for (const rlusd of [false, true])
    out.push({
      name: `curve rlusd=${rlusd}`,
      steps: planCurveLaunch({
        userAddress: R,
        issuerAddress: R,
        curveAddress: R,
        feeAddress: R,
        currency: 'TST',
        supply: '1000000000',
        rlusd: rlusd ? RLUSD : null,
        issuerFundDrops: '1100000',
        curveFundDrops: '7300000',
        serviceFeeDrops: '15000000',
      }),
    });
  return out;
}

describe('deploy step groups', () => {
  it.each(plans())(
    '$name: grouped steps never wait for each other, and every step has a group',
    ({ steps }) => {
      const after = new Map(steps.map((s) => [s.name, s.after]));
      const waitsFor = (a: string, b: string, seen = new Set<string>()): boolean =>
        (after.get(a) ?? []).some((d) => d === b || (!seen.has(d) && (seen.add(d), waitsFor(d, b, seen))));
      for (const step of steps)
        expect(DEPLOY_STEP_GROUPS.filter((g) => g.steps.includes(step.name))).toHaveLength(1);
      for (const group of DEPLOY_STEP_GROUPS) {
        const present = group.steps.filter((s) => after.has(s));
        for (const a of present)
          for (const b of present) if (a !== b) expect(waitsFor(a, b), `${a} → ${b}`).toBe(false);
      }
    },
  );
});

describe('the window launch plan', () => {
  it('opens no pool and burns nothing itself; the first buy leaves the curve account after the supply', () => {
    const steps = planDeploy({
      window: true,
      userAddress: R,
      issuerAddress: R,
      hotAddress: R,
      feeAddress: R,
      currency: 'TST',
      supply: '1000',
      devAmount: '0',
      hotAmount: '1000',
      pair: 'XRP',
      liquidity: '100000000',
      rlusd: null,
      tradingFee: 300,
      requireAuth: false,
      blackhole: true,
      burnLp: true,
      issuerFundDrops: '1100000',
      hotFundDrops: '117300000',
      serviceFeeDrops: '15000000',
      firstBuy: { drops: '10000000', feeDrops: '75000', deliverMin: '90.5', batch: false },
    });
    const names = steps.map((s) => s.name);
    expect(names).not.toContain('create-amm');
    expect(names.some((n) => n.startsWith('burn-lp'))).toBe(false);
    const buy = steps.find((s) => s.name === 'first-buy')!;
    expect(buy.after).toEqual(['issue-supply', 'dev-trust-line']);
    expect(buy.tx).toMatchObject({ TransactionType: 'Payment', Amount: { value: '90.5' } });
    expect(steps.find((s) => s.name === 'first-buy-fee')!.tx).toMatchObject({ Amount: '75000' });
    expect(names).toContain('blackhole-disable-master');
  });
});
