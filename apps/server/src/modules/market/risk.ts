import { inArray } from 'drizzle-orm';
import type { Client } from 'xrpl';
import {
  NO_NEW_HOLDERS_SENTENCE,
  RISK_LEVEL_TEXT,
  RLUSD_CURRENCY_HEX,
  type DevLockView,
  type ExcludedHolder,
  type HolderCluster,
  type RiskReport,
  type RiskSeverity,
  type RiskSignal,
} from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { ledgerUnavailable } from '../../lib/errors';
import { readIssuerFacts, type IssuerFacts } from '../../ledger/account-root';
import { lines, lpBurnedPercent, readLpBurn, type LpBurn } from './lp-holders';
import type { TokenRow } from '../tokens';
import { devLockOf } from '../vesting';
import { clusterHolders, FundingReader, TOP_HOLDERS_TRACED, type Funding } from './holder-clusters';
import { platformHolders } from './holders';
import { marketPools } from './schema';
import type { MarketSnapshot } from './snapshot';
import { Decimal } from '@ledgerpad/shared';

// GET /api/tokens/{issuer}/risk: what a buyer should know about a token before trading it, read
// from the validated ledger (the issuer's account root, its trust lines, the AMM pool and who holds
// its LP tokens) so no signal can mislead: holders and the top 10 leave out the issuer, AMM pools,
// the bonding-curve account and Ledgerpad's own accounts (and say so); every flag comes with its
// severity and one sentence of consequence; the verdict is the worst signal.

export interface RiskHolder {
  account: string;
  balance: string;
  frozen: boolean;
  deepFrozen: boolean;
}

/** Everything the assessment reads, gathered from the ledger (`readRiskInput`). */
export interface RiskInput {
  issuer: string;
  facts: IssuerFacts;
  /** Every trust line of the token, from the holder's side. */
  holders: RiskHolder[];
  /** Accounts left out of holders, with their label (AMM pools, curve, platform accounts). */
  excluded: Map<string, string>;
  /** The token's AMM pools (their accounts also sit in `excluded`). */
  pools: string[];
  /** The main pool's LP tokens: total, and the checked holders with whether they can ever withdraw. */
  lp: LpBurn | null;
  devSharePercent: string | null;
  /** The deployer's escrows of the token (issue 28); absent for tokens Ledgerpad did not deploy. */
  devLock?: DevLockView | null;
  /** How the largest holders were funded (issue 35: holder clusters); absent: not read. */
  fundings?: ReadonlyMap<string, Funding>;
}

export interface RiskTokenRef {
  issuer: string;
  currency: string;
  /** The pool pair that counts for LP locking (the token's launch pair). */
  quote: { currency: 'XRP' } | { currency: string; issuer: string };
  /** Other pairs whose AMM accounts are also left out of holders. */
  otherQuotes?: Array<{ currency: 'XRP' } | { currency: string; issuer: string }>;
  devSharePercent: string | null;
}

type Asset = { currency: 'XRP' } | { currency: string; issuer: string };

async function ammOf(client: Client, token: RiskTokenRef, quote: Asset) {
  try {
    const r = await client.request({
      command: 'amm_info',
      asset: quote,
      asset2: { currency: token.currency, issuer: token.issuer },
      ledger_index: 'validated',
    });
    const amm = r.result.amm as unknown as { account: string; lp_token: { currency: string; value: string } };
    return { account: amm.account, lpCurrency: amm.lp_token.currency, lpSupply: amm.lp_token.value };
  } catch {
    return undefined; // no such pool
  }
}

/**
 * Reads what the assessment needs from the validated ledger. `platform`: `platformHolders`.
 * `fundings`: reads who funded the largest holders (the route keeps one reader; tests pass theirs).
 */
export async function readRiskInput(
  client: Client,
  token: RiskTokenRef,
  platform: ReadonlyMap<string, string>,
  fundings: FundingReader = new FundingReader(client),
): Promise<RiskInput> {
  const facts = await readIssuerFacts(client, token.issuer);
  const main = await ammOf(client, token, token.quote);
  const others = await Promise.all((token.otherQuotes ?? []).map((q) => ammOf(client, token, q)));
  const excluded = new Map(platform);
  const pools: string[] = [];
  for (const p of [main, ...others]) {
    if (!p) continue;
    excluded.set(p.account, 'AMM pool');
    pools.push(p.account);
  }
  const holders = (await lines(client, token.issuer))
    .filter((l) => l.currency === token.currency)
    .map((l) => ({
      account: l.account,
      // The issuer's side is negative: the holder holds the opposite.
      balance: new Decimal(l.balance).neg().toFixed(),
      frozen: l.freeze === true,
      deepFrozen: l.deep_freeze === true,
    }));
  const lp = main && new Decimal(main.lpSupply).gt(0) ? await readLpBurn(client, main) : null;
  const traced = largestHolders(holders, excluded).slice(0, TOP_HOLDERS_TRACED);
  return {
    issuer: token.issuer,
    facts,
    holders,
    excluded,
    pools,
    lp,
    devSharePercent: token.devSharePercent,
    fundings: await fundings.of(traced.map((h) => h.account)),
  };
}

/** Holders with a positive balance, the excluded accounts left out, largest first. */
function largestHolders(holders: RiskHolder[], excluded: ReadonlyMap<string, string>): RiskHolder[] {
  return holders
    .filter((h) => !excluded.has(h.account) && new Decimal(h.balance).gt(0))
    .sort((a, b) => new Decimal(b.balance).cmp(a.balance));
}

/** How long a cluster's fundings took, in words ('2 minutes', 'under a minute'). */
function spanText(c: HolderCluster): string {
  if (!c.fundedFrom || !c.fundedTo) return 'a short time';
  const minutes = Math.round((Date.parse(c.fundedTo) - Date.parse(c.fundedFrom)) / 60_000);
  if (minutes < 1) return 'under a minute';
  return minutes < 120 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${Math.round(minutes / 60)} hours`;
}

/** What holders and the top 10 leave out, said wherever they are shown. */
export const HOLDERS_NOTE = 'not counting the issuer, AMM pools, bonding curves and Ledgerpad’s own accounts';

const SEVERITY_RANK: Record<RiskSeverity, number> = { danger: 3, warn: 2, good: 1, info: 0 };
const pct = (part: Decimal, whole: Decimal) =>
  whole.gt(0) ? part.div(whole).mul(100).toDecimalPlaces(2).toFixed() : '0';

/** The signals, their severities and the verdict, from what the ledger says. Pure. */
export function assessRisk(input: RiskInput): RiskReport {
  const f = input.facts;
  const canSign = !f.blackholed;
  const signals: RiskSignal[] = [];
  const add = (s: RiskSignal) => signals.push(s);

  add(
    canSign
      ? {
          id: 'issuer-key',
          severity: 'warn',
          label: 'Issuer',
          value: 'Can still sign',
          sentence: 'The issuer can still sign: it could issue more tokens.',
        }
      : {
          id: 'issuer-key',
          severity: 'good',
          label: 'Issuer',
          value: 'Blackholed: supply is fixed',
          sentence: 'Supply is fixed: the issuer can never sign again.',
        },
  );

  if (f.requireAuth) {
    add(
      canSign
        ? {
            id: 'require-auth',
            severity: 'warn',
            label: 'Authorization required',
            value: 'Yes: holders need the issuer’s approval',
            sentence: 'A new holder needs the issuer’s approval before it can receive this token.',
          }
        : {
            id: 'require-auth',
            severity: 'danger',
            label: 'Authorization required',
            value: 'Yes, and the issuer can no longer approve anyone',
            sentence: NO_NEW_HOLDERS_SENTENCE,
          },
    );
  } else {
    add({
      id: 'require-auth',
      severity: 'good',
      label: 'Authorization required',
      value: 'No',
      sentence: 'Any wallet can hold this token.',
    });
  }

  if (f.globalFreeze) {
    add({
      id: 'freeze',
      severity: 'danger',
      label: 'Freeze',
      value: 'Frozen now',
      sentence: 'The issuer has frozen the whole token: holders can only send it back to the issuer.',
    });
  } else if (f.noFreeze) {
    add({
      id: 'freeze',
      severity: 'good',
      label: 'Freeze',
      value: 'Gave up freezing',
      sentence: 'The issuer gave up freezing for good: no holder can ever be frozen.',
    });
  } else if (!canSign) {
    add({
      id: 'freeze',
      severity: 'good',
      label: 'Freeze',
      value: 'Cannot sign to freeze',
      sentence: 'The issuer can no longer sign, so it can never freeze a holder.',
    });
  } else {
    add({
      id: 'freeze',
      severity: 'warn',
      label: 'Freeze',
      value: 'Can freeze and deep-freeze',
      sentence:
        'The issuer can freeze a holder, or deep-freeze it so it can neither send nor receive this token.',
    });
  }

  const held = input.holders.filter((h) => new Decimal(h.balance).gt(0) || h.frozen || h.deepFrozen);
  const deep = held.filter((h) => h.deepFrozen).length;
  const frozen = held.filter((h) => h.frozen && !h.deepFrozen).length;
  if (deep > 0) {
    add({
      id: 'frozen-holders',
      severity: 'danger',
      label: 'Frozen holders',
      value: `${deep} deep-frozen${frozen ? `, ${frozen} frozen` : ''}`,
      sentence: `${deep} ${deep === 1 ? 'holder is' : 'holders are'} deep-frozen: ${deep === 1 ? 'it' : 'they'} can neither send nor receive this token.`,
    });
  } else if (frozen > 0) {
    add({
      id: 'frozen-holders',
      severity: 'warn',
      label: 'Frozen holders',
      value: `${frozen} frozen`,
      sentence: `${frozen} ${frozen === 1 ? 'holder is' : 'holders are'} frozen: ${frozen === 1 ? 'it' : 'they'} can only send this token back to the issuer.`,
    });
  }

  if (f.clawback) {
    add({
      id: 'clawback',
      severity: 'danger',
      label: 'Clawback',
      value: 'Enabled',
      sentence: 'The issuer can take tokens back from any holder at any time (clawback).',
    });
    if (input.pools.length > 0) {
      add({
        id: 'amm-clawback',
        severity: 'danger',
        label: 'AMM clawback',
        value: 'Pool exposed',
        sentence:
          'The issuer can also claw its tokens out of the AMM pool (AMMClawback), taking them from liquidity providers.',
      });
    }
  } else {
    add({
      id: 'clawback',
      severity: 'good',
      label: 'Clawback',
      value: 'Disabled',
      sentence: 'The issuer cannot claw tokens back from holders.',
    });
  }

  const transferFeePercent = f.transferRate ? new Decimal(f.transferRate).div(1e7).minus(100).toFixed() : '0';
  if (transferFeePercent !== '0') {
    add({
      id: 'transfer-fee',
      severity: 'warn',
      label: 'Transfer fee',
      value: `${transferFeePercent}%`,
      sentence: `Every transfer between holders pays a ${transferFeePercent}% fee to the issuer.`,
    });
  }

  if (input.devLock && input.devLock.status !== 'not-locked') {
    // Read from the ledger's escrow objects: provable, unlike a promise in a description. Green only
    // when the ledger guarantees it (issue 35): the whole allocation in escrows with a FinishAfter
    // still ahead and no Condition.
    const lock = input.devLock;
    const conditional = lock.escrows.some((e) => e.state === 'conditional' || e.state === 'no-finish-after');
    const due = lock.dueAmount !== '0';
    add({
      id: 'dev-allocation',
      severity: lock.status === 'locked' ? 'good' : 'warn',
      label: 'Dev allocation',
      value: lock.text.replace(/^Dev allocation /, ''),
      sentence:
        lock.status === 'locked'
          ? 'All of it is in escrows on the XRP Ledger with an unlock date still ahead and no condition: the deployer cannot sell it before then.'
          : lock.status === 'partial'
            ? `Only ${lock.lockedPercent === '0' ? 'a sliver (under 0.01%)' : `${lock.lockedPercent}%`} of it is locked on the XRP Ledger: the rest ${due ? 'can be released now' : 'can be sold at any time'}.`
            : due
              ? 'Its escrows have reached their unlock date: the deployer can release and sell it now.'
              : conditional
                ? 'Its escrow has a crypto-condition (or no unlock date): it can be finished at any time, so it is not a lock.'
                : lock.scheduled
                  ? 'Every tranche of the deployer’s escrows has been released: the allocation can be sold.'
                  : 'Not in escrow on the XRP Ledger: the deployer can sell it at any time.',
    });
  } else if (input.devSharePercent !== null) {
    add({
      id: 'dev-allocation',
      severity: new Decimal(input.devSharePercent).gt(20) ? 'warn' : 'info',
      label: 'Dev allocation',
      value: `${input.devSharePercent}%`,
      sentence: `The deployer took ${input.devSharePercent}% of the supply at launch.`,
    });
  }

  // Holders and the top 10: the issuer has no line of its own; AMM pools, the curve and platform
  // accounts hold tokens that are the market, not a holder's. Wallets funded together (one owner,
  // most likely) count as one holder in the top 10.
  const supply = input.holders.reduce((s, h) => s.plus(Decimal.max(h.balance, 0)), new Decimal(0));
  const largest = largestHolders(input.holders, input.excluded);
  const clusters = input.fundings
    ? clusterHolders(
        largest.slice(0, TOP_HOLDERS_TRACED),
        input.fundings,
        supply,
        new Set(input.excluded.keys()),
      )
    : [];
  const inCluster = new Set(clusters.flatMap((c) => c.accounts));
  const entities = [
    ...clusters.map((c) => new Decimal(c.balance)),
    ...largest.filter((h) => !inCluster.has(h.account)).map((h) => new Decimal(h.balance)),
  ].sort((a, b) => b.cmp(a));
  const top10 = entities.slice(0, 10).reduce((s, b) => s.plus(b), new Decimal(0));
  const top10SharePercent = pct(top10, supply);
  const excluded: ExcludedHolder[] = [
    { account: input.issuer, label: 'Issuer' },
    ...input.holders
      .filter((h) => input.excluded.has(h.account) && new Decimal(h.balance).gt(0))
      .map((h) => ({ account: h.account, label: input.excluded.get(h.account)! })),
  ];
  add({
    id: 'top-holders',
    severity: new Decimal(top10SharePercent).gt(50) ? 'warn' : 'info',
    label: 'Top 10 holders',
    value: `${top10SharePercent}%`,
    sentence: `The 10 largest holders own ${top10SharePercent}% of the supply (${HOLDERS_NOTE}${clusters.length ? '; wallets funded together count as one' : ''}).`,
  });
  if (clusters.length > 0) {
    const biggest = clusters[0]!;
    const share = new Decimal(biggest.sharePercent);
    const wallets = clusters.reduce((n, c) => n + c.accounts.length, 0);
    const together = clusters.reduce((s, c) => s.plus(c.balance), new Decimal(0));
    add({
      id: 'holder-clusters',
      severity: share.gt(50) ? 'danger' : share.gt(10) ? 'warn' : 'info',
      label: 'Holders funded together',
      value: `${wallets} wallets in ${clusters.length} group${clusters.length === 1 ? '' : 's'}: ${pct(together, supply)}%`,
      sentence:
        `${biggest.accounts.length} of the largest holders were funded ${biggest.funder ? `by the same account (${biggest.funder})` : 'by one another'} ` +
        `within ${spanText(biggest)}: together they hold ${biggest.sharePercent}% of the supply, likely one owner.`,
    });
  }

  let lpLockedPercent: string | null = null;
  if (input.lp) {
    lpLockedPercent = lpBurnedPercent(input.lp);
    const locked = new Decimal(lpLockedPercent);
    // Burned = held by accounts that can never sign (issue 37: 'Burn the LP' at deploy, a curve's
    // graduation, or anyone's own burn): named as such, with its share of the pool's LP tokens.
    add({
      id: 'lp-locked',
      severity: locked.eq(0) ? 'warn' : locked.gte(95) ? 'good' : 'info',
      label: locked.eq(0) ? 'LP locked' : 'LP burned',
      value: `${lpLockedPercent}%`,
      sentence: locked.eq(0)
        ? 'None of the pool is locked: its liquidity providers can withdraw all of it.'
        : locked.eq(100)
          ? 'All of the pool’s LP tokens are burned (held by accounts that can never sign): its liquidity can never be withdrawn.'
          : `${lpLockedPercent}% of the pool’s LP tokens are burned (held by accounts that can never sign); the rest can be withdrawn.`,
    });
  }

  const level = signals.reduce<RiskSeverity>(
    (worst, s) => (SEVERITY_RANK[s.severity] > SEVERITY_RANK[worst] ? s.severity : worst),
    'info',
  );
  const worst = signals.filter((s) => s.severity === level);
  const verdict =
    level === 'danger' || level === 'warn'
      ? `${RISK_LEVEL_TEXT[level]}: ${worst.map((s) => s.sentence).join(' ')}`
      : `${RISK_LEVEL_TEXT[level]}: ${signals[0]!.sentence}`;

  return {
    issuer: input.issuer,
    blackholed: f.blackholed,
    masterDisabled: f.masterDisabled,
    regularKey: f.regularKey,
    hasSignerList: f.hasSignerList,
    requireAuth: f.requireAuth,
    globalFreeze: f.globalFreeze,
    noFreeze: f.noFreeze,
    clawback: f.clawback,
    transferFeePercent,
    devSharePercent: input.devSharePercent,
    devLock: input.devLock ?? null,
    holders: largest.length,
    top10SharePercent,
    clusters,
    excluded,
    frozenHolders: frozen,
    deepFrozenHolders: deep,
    lpLockedPercent,
    level,
    signals,
    verdict,
  };
}

/** The route's reader: one report per token and validated ledger. */
export class RiskReader {
  private readonly cache = new Map<string, { ledger: number; report: RiskReport }>();
  private fundings: FundingReader | undefined;

  constructor(
    private readonly deps: {
      db: Db;
      client: Client | undefined;
      snapshot: MarketSnapshot;
      rlusdIssuer: () => Promise<string | undefined>;
    },
  ) {}

  async of(token: TokenRow): Promise<RiskReport> {
    const ledger = (await this.deps.snapshot.get()).ledger;
    const key = `${token.issuerAddress}|${token.currency}`;
    const hit = this.cache.get(key);
    if (hit && hit.ledger === ledger && ledger > 0) return hit.report;
    const client = this.deps.client;
    if (!client) throw ledgerUnavailable();
    const rlusd = await this.deps.rlusdIssuer();
    const rlusdAsset = rlusd ? { currency: RLUSD_CURRENCY_HEX, issuer: rlusd } : undefined;
    const xrp = { currency: 'XRP' as const };
    const quote = token.liquidityPair === 'RLUSD' && rlusdAsset ? rlusdAsset : xrp;
    const other = quote === xrp ? rlusdAsset : xrp;
    // Pools the indexer knows of this token (any pair) are left out too.
    const known = await this.deps.db
      .select({ account: marketPools.ammAccount })
      .from(marketPools)
      .where(inArray(marketPools.tokenId, [token.id]));
    const platform = await platformHolders(this.deps.db);
    for (const p of known) platform.set(p.account, 'AMM pool');
    const input = await readRiskInput(
      client,
      {
        issuer: token.issuerAddress,
        currency: token.currency,
        quote,
        otherQuotes: other ? [other] : [],
        devSharePercent: token.source === 'deploy' ? new Decimal(token.devAllocation).toFixed() : null,
      },
      platform,
      (this.fundings ??= new FundingReader(client)),
    );
    const devLock = await devLockOf(client, this.deps.db, token);
    const report = assessRisk({ ...input, devLock });
    this.cache.set(key, { ledger, report });
    return report;
  }
}
