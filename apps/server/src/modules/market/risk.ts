import { desc, eq, and, sql } from 'drizzle-orm';
import type { Client } from 'xrpl';
import type { RiskReport } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import type { TokenRow } from '../tokens';
import { readIssuerFacts } from '../../ledger/account-root';
import { issuerFacts, marketHolders, marketPools } from './schema';
import type { MarketSnapshot } from './snapshot';
import { Decimal } from '@ledgerpad/shared';

// GET /api/tokens/{issuer}/risk: what a buyer should know about a token before trading it, from the
// indexed issuer facts and holders, plus who holds the pool's LP tokens (read from the ledger).

/** LP holders checked for a black hole (the largest first); the rest count as not locked. */
const LP_HOLDERS_CHECKED = 20;

export class RiskReader {
  private readonly cache = new Map<string, { ledger: number; report: RiskReport }>();

  constructor(private readonly deps: { db: Db; client: Client | undefined; snapshot: MarketSnapshot }) {}

  async of(token: TokenRow): Promise<RiskReport> {
    const ledger = (await this.deps.snapshot.get()).ledger;
    const hit = this.cache.get(token.issuerAddress);
    if (hit && hit.ledger === ledger && ledger > 0) return hit.report;
    const report = await this.build(token);
    this.cache.set(token.issuerAddress, { ledger, report });
    return report;
  }

  private async build(token: TokenRow): Promise<RiskReport> {
    const { db } = this.deps;
    const [facts] = await db
      .select()
      .from(issuerFacts)
      .where(eq(issuerFacts.issuerAddress, token.issuerAddress));
    const pools = await db.select().from(marketPools).where(eq(marketPools.tokenId, token.id));
    const top = await db
      .select({ balance: marketHolders.balance })
      .from(marketHolders)
      .where(
        and(
          eq(marketHolders.tokenId, token.id),
          sql`${marketHolders.balance} > 0`,
          sql`${marketHolders.account} not in (select ${marketPools.ammAccount} from ${marketPools})`,
        ),
      )
      .orderBy(desc(marketHolders.balance))
      .limit(10);
    const supply = new Decimal(token.supply);
    const top10 = top.reduce((sum, h) => sum.plus(h.balance), new Decimal(0));
    const pct = (part: InstanceType<typeof Decimal>, whole: InstanceType<typeof Decimal>) =>
      whole.gt(0) ? part.div(whole).mul(100).toDecimalPlaces(2).toFixed() : '0';
    const pool = pools.find((p) => p.quote === token.liquidityPair) ?? pools[0];
    const lpLocked = pool ? await this.lpLocked(pool.ammAccount, pool.lpCurrency, pool.lpSupply) : null;
    const blackholed = facts?.blackholed ?? token.isBlackholed;
    const report: RiskReport = {
      issuer: token.issuerAddress,
      blackholed,
      masterDisabled: facts?.masterDisabled ?? false,
      regularKey: facts?.regularKey ?? null,
      hasSignerList: facts?.hasSignerList ?? false,
      requireAuth: facts?.requireAuth ?? token.requireAuth,
      globalFreeze: facts?.globalFreeze ?? false,
      noFreeze: facts?.noFreeze ?? false,
      clawback: facts?.clawback ?? false,
      transferFeePercent: facts?.transferRate
        ? new Decimal(facts.transferRate).div(1e7).minus(100).toFixed()
        : '0',
      devSharePercent: token.source === 'deploy' ? new Decimal(token.devAllocation).toFixed() : null,
      top10SharePercent: pct(top10, supply),
      lpLockedPercent: lpLocked,
      verdict: '',
    };
    report.verdict = verdict(report);
    return report;
  }

  private async lpLocked(ammAccount: string, lpCurrency: string, lpSupply: string): Promise<string | null> {
    const client = this.deps.client;
    if (!client || new Decimal(lpSupply).lte(0)) return null;
    try {
      const lines = await client.request({
        command: 'account_lines',
        account: ammAccount,
        ledger_index: 'validated',
        limit: 400,
      });
      const holders = lines.result.lines
        .filter((l) => l.currency === lpCurrency)
        .map((l) => ({ account: l.account, balance: new Decimal(l.balance).neg() }))
        .filter((h) => h.balance.gt(0))
        .sort((a, b) => b.balance.cmp(a.balance))
        .slice(0, LP_HOLDERS_CHECKED);
      let locked = new Decimal(0);
      for (const h of holders) {
        if ((await readIssuerFacts(client, h.account)).blackholed) locked = locked.plus(h.balance);
      }
      return locked.div(lpSupply).mul(100).toDecimalPlaces(2).toFixed();
    } catch {
      return null;
    }
  }
}

export function verdict(r: RiskReport): string {
  const parts: string[] = [];
  parts.push(
    r.blackholed
      ? 'Supply is fixed: the issuer can never sign again.'
      : 'The issuer can still sign: it could issue more tokens.',
  );
  if (!r.blackholed && !r.noFreeze) parts.push('It can freeze holders.');
  if (r.clawback) parts.push('It can claw tokens back.');
  if (r.transferFeePercent !== '0') parts.push(`Every transfer pays a ${r.transferFeePercent}% fee.`);
  if (new Decimal(r.top10SharePercent).gt(50))
    parts.push(`The top 10 holders own ${r.top10SharePercent}% of the supply.`);
  if (r.lpLockedPercent !== null && new Decimal(r.lpLockedPercent).eq(0))
    parts.push('None of the pool is locked.');
  return parts.join(' ');
}
