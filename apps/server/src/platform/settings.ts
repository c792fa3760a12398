import {
  bondingConfigView,
  DEFAULT_AIRDROP_RESERVE_XRP,
  TOKEN_CREATION_FEE_XRP,
  TRADING_FEE_PERCENT,
  type FeesConfig,
  Decimal,
  dropsToXrp,
  parseDecimal,
  type DecimalValue,
  DEFAULT_RESERVE_BASE_DROPS,
} from '@ledgerpad/shared';
import { batchedRead } from '../db/batched';
import type { Db } from '../db/client';
import { platformSettings } from '../db/schema';

// Platform configuration (spec 001 §3 "Platform config keys"): rows of platform_settings override
// these defaults; admins edit the rows (admin issue). Values are decimal strings of XRP.

export const SETTING_DEFAULTS = {
  /** The deploy service fee (the terms' 15 XRP token creation fee). */
  service_fee: TOKEN_CREATION_FEE_XRP,
  /** Where the service fee goes; empty = the platform fee wallet. */
  service_fee_destination: '',
  /**
   * XRP sent to a new issuer: the 1 XRP account reserve and 0.1 XRP for its own transaction fees
   * (about 8,000 of them at 12 drops); a blackholed issuer's XRP is locked forever, so no more.
   */
  issuer_reserve: '1.1',
  /**
   * XRP sent to a new hot wallet besides the XRP liquidity: 1 XRP account reserve, 0.2 for its token
   * line, 0.2 for the LP-token line, 0.2 burned by AMMCreate, fees; what remains stays its own.
   */
  hot_wallet_reserve: '2',
  airdrop_fee_xrp: DEFAULT_AIRDROP_RESERVE_XRP,
  /** The platform's fee on each trade made here, in percent of its notional (the terms' 0.75%). */
  trading_fee_percent: TRADING_FEE_PERCENT,
  /** The part of each trading fee that accrues to the token's creator, as a fraction 'a/b' or a decimal. */
  creator_reward_share: '1/3',
  /**
   * Referrals (docs/referrals.md): the referrer's share of the platform fee a referred user's trades
   * pay, in percent (0–50, 2 decimals), for this many months after the referred user signed up (1–60).
   */
  referral_share_percent: '20',
  referral_months: '12',
  /**
   * Curve launches (docs/bonding-curve.md). The virtual quote reserve sets the curve's starting
   * price and its graduation amount (2.837 × the reserve is raised when the curve sells out):
   * 1,000 XRP graduates at about 2,834 XRP raised; the RLUSD figure matches it at 2.2 RLUSD/XRP.
   */
  bonding_virtual_xrp: '1000',
  bonding_virtual_rlusd: '2200',
  /** Equal steps the curve is cut into (a divisor of 793,100,000); 200 steps of 3,965,500 tokens. */
  bonding_steps: '200',
  /** Steps on each side of the price posted as one offer each (further away: aligned blocks). */
  bonding_fine_steps: '6',
  /** Anti-snipe: for this many ledgers after launch at most `bonding_snipe_tokens` are for sale per ledger. */
  bonding_snipe_ledgers: '5',
  bonding_snipe_tokens: '10000000',
  /**
   * The anti-sniper window of curve launches that opt in (issue 37, docs/launch-protection.md): the
   * surcharge on the curve's sell prices at launch, in percent (0–50), stepping down to 0 over the
   * window, in seconds of ledger time (0–600). Fixed into each launch at deploy.
   */
  anti_sniper_start_percent: '25',
  anti_sniper_window_seconds: '120',
} as const;

export type SettingKey = keyof typeof SETTING_DEFAULTS;
export type Settings = Record<SettingKey, string>;

/** Transaction fees a deploy may burn from the paying wallet (its own ~5 transactions), in XRP. */
const DEPLOY_NETWORK_FEE_ALLOWANCE_XRP = '0.001';

const XRP_KEYS: SettingKey[] = ['service_fee', 'issuer_reserve', 'hot_wallet_reserve', 'airdrop_fee_xrp'];

export class PlatformSettings {
  /**
   * The last fee view and what it was computed from. The bonding part walks the whole curve (150 to
   * 210 ms of CPU), and GET /api/config/fees is public: the view is computed once per change of the
   * settings or reserves (on any instance: the rows are read each time), not once per request.
   */
  private feesView: { key: string; view: FeesConfig } | undefined;

  constructor(private readonly db: Db) {}

  /**
   * The rows are read each time (an admin's change on any instance counts at once), but the
   * readers of one turn — a burst of swaps asks several times per swap — share one statement.
   */
  private readonly rows = batchedRead(async (keys: string[]) => {
    const rows = await this.db.select().from(platformSettings);
    return new Map(keys.map((k) => [k, rows]));
  });

  /**
   * Every setting. `executor`: read in that database transaction (a caller inside one must: on PGlite
   * a read on the pool would wait for the transaction it is part of).
   */
  async all(executor?: Db): Promise<Settings> {
    const rows = executor ? await executor.select().from(platformSettings) : ((await this.rows('all')) ?? []);
    const out: Settings = { ...SETTING_DEFAULTS };
    for (const row of rows) {
      if (!(row.key in SETTING_DEFAULTS)) continue;
      const key = row.key as SettingKey;
      // A malformed stored amount falls back to the default instead of breaking every deploy.
      if (XRP_KEYS.includes(key)) {
        try {
          if (new Decimal(row.value).isNeg()) continue;
        } catch {
          continue;
        }
      }
      out[key] = row.value;
    }
    return out;
  }

  /**
   * GET /api/config/fees, and what a deploy is priced with: the settings plus the ledger's owner
   * reserve (and its base reserve, which the curve account's deposit counts).
   */
  async fees(
    ownerReserveDrops: bigint,
    baseReserveDrops = DEFAULT_RESERVE_BASE_DROPS,
    baseFeeDrops = 10n,
  ): Promise<FeesConfig> {
    const s = await this.all();
    const key = JSON.stringify([
      s,
      ownerReserveDrops.toString(),
      baseReserveDrops.toString(),
      baseFeeDrops.toString(),
    ]);
    if (this.feesView?.key === key) return this.feesView.view;
    const view: FeesConfig = {
      trading_fee_percent: s.trading_fee_percent,
      base_reserve: dropsToXrp(baseReserveDrops),
      base_fee: dropsToXrp(baseFeeDrops),
      service_fee: s.service_fee,
      issuer_reserve: s.issuer_reserve,
      hot_wallet_reserve: s.hot_wallet_reserve,
      airdrop_fee_xrp: s.airdrop_fee_xrp,
      owner_reserve: dropsToXrp(ownerReserveDrops),
      network_fee_allowance: DEPLOY_NETWORK_FEE_ALLOWANCE_XRP,
      bonding: bondingConfigView(s, { base: baseReserveDrops, owner: ownerReserveDrops }),
    };
    this.feesView = { key, view };
    return view;
  }

  async set(key: SettingKey, value: string): Promise<void> {
    await this.db
      .insert(platformSettings)
      .values({ key, value })
      .onConflictDoUpdate({ target: platformSettings.key, set: { value, updatedAt: new Date() } });
  }
}

/**
 * `amount` × the share stored in the creator_reward_share setting ('a/b' or a decimal; 0 when
 * malformed or outside 0–1). Multiplied by a, then divided by b, so a third of 0.075 is 0.025
 * exactly (a share rounded to digits first would make it 0.02499…).
 */
export function applyShare(amount: DecimalValue, text: string): Decimal {
  const [a, b] = text.split('/');
  const num = parseDecimal(a);
  const den = b === undefined ? new Decimal(1) : parseDecimal(b);
  if (!num || !den || !den.gt(0) || num.isNeg() || num.gt(den)) return new Decimal(0);
  return new Decimal(amount).mul(num).div(den);
}
