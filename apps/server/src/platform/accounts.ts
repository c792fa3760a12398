import { like, or, eq } from 'drizzle-orm';
import { AccountSetAsfFlags, Wallet, type Client } from 'xrpl';
import { RLUSD_CURRENCY_HEX, RLUSD_ISSUERS, Decimal, xrpToDrops } from '@ledgerpad/shared';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Keyring } from '../keys/envelope';
import { ledgerSubmissions } from '../ledger/schema';
import type { SubmissionLog, SubmissionOutcome, SubmissionService } from '../ledger/submission-service';
import { insertWallet, platformWallet, type WalletRow } from './custody';

// The platform's own accounts. On the embedded stand-alone network the first start creates an RLUSD
// issuer, a market maker with an XRP/RLUSD pool, the fee wallet and the service wallet, funded from
// the genesis account; on public networks only the fee and service wallets are created (an operator
// funds them) and RLUSD is Ripple's issuer.

/** rippled's stand-alone genesis account ("masterpassphrase"): public knowledge, holds all XRP. */
export const STANDALONE_GENESIS_SEED = 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb';

export const PLATFORM_ROLES = {
  genesis: 'genesis',
  rlusdIssuer: 'rlusd_issuer',
  marketMaker: 'market_maker',
  fee: 'fee',
  service: 'service',
} as const;

const TRUST_LIMIT = '1000000000000';
const PLATFORM_WALLET_XRP = '1000';

export interface BootstrapSettings {
  rlusdPerXrp: string;
  poolXrp: string;
  tradingFee: number;
}

export function bootstrapSettings(config: Config): BootstrapSettings {
  return {
    rlusdPerXrp: config.RLUSD_PER_XRP,
    poolXrp: config.AMM_POOL_XRP,
    tradingFee: config.AMM_TRADING_FEE,
  };
}

export interface BootstrapReport {
  rlusdIssuer: string;
  marketMaker?: string;
  feeWallet: string;
  serviceWallet: string;
  amm: { created: boolean; result?: string };
}

async function ensureRole(db: Db, keyring: Keyring, role: string, wallet?: Wallet): Promise<WalletRow> {
  const found = await platformWallet(db, role);
  if (found) return found;
  try {
    return await insertWallet(db, keyring, {
      userId: null,
      role,
      name: role,
      wallet: wallet ?? Wallet.generate(),
    });
  } catch (err) {
    // Two instances bootstrapping at once: the unique index keeps one per role.
    const again = await platformWallet(db, role);
    if (again) return again;
    throw err;
  }
}

/** The genesis account as a platform wallet, so the faucet signs through the submission service. */
export function recordGenesis(db: Db, keyring: Keyring): Promise<WalletRow> {
  return ensureRole(db, keyring, PLATFORM_ROLES.genesis, Wallet.fromSeed(STANDALONE_GENESIS_SEED));
}

/** The stand-alone RLUSD issuer once bootstrapped, per database: a platform role is never replaced. */
const bootstrappedRlusd = new WeakMap<Db, string>();

/**
 * RLUSD issuer of a network: Ripple's on public networks, the bootstrapped one on stand-alone. Read
 * on every ledger the indexer follows and every snapshot build, so the stand-alone answer is kept
 * once it exists (a wallet read per call was a tenth of the indexer's database time).
 */
export async function rlusdIssuer(db: Db, network: Config['XRPL_NETWORK']): Promise<string | undefined> {
  if (network !== 'standalone') return RLUSD_ISSUERS[network];
  const known = bootstrappedRlusd.get(db);
  if (known) return known;
  const address = (await platformWallet(db, PLATFORM_ROLES.rlusdIssuer))?.address;
  if (address) bootstrappedRlusd.set(db, address);
  return address;
}

/**
 * Runs a bootstrap step exactly once across restarts: the intent key is fixed, and only a step that
 * failed for good is tried again (under a numbered key), never one still in flight or succeeded.
 */
async function step(
  db: Db,
  submissions: SubmissionService,
  base: string,
  req: Omit<Parameters<SubmissionService['submit']>[0], 'intentKey'>,
): Promise<SubmissionOutcome> {
  const rows = await db
    .select()
    .from(ledgerSubmissions)
    .where(or(eq(ledgerSubmissions.intentKey, base), like(ledgerSubmissions.intentKey, `${base}#%`)));
  const open = rows.find((r) => r.status === 'pending' || r.status === 'submitted');
  if (open) return submissions.wait(open.hash);
  const done = rows.find((r) => r.status === 'success');
  if (done) return submissions.wait(done.hash);
  return submissions.submit({ ...req, intentKey: rows.length ? `${base}#${rows.length + 1}` : base });
}

async function activated(client: Client, address: string): Promise<boolean> {
  try {
    await client.request({ command: 'account_info', account: address, ledger_index: 'validated' });
    return true;
  } catch {
    return false;
  }
}

async function fundFromGenesis(
  db: Db,
  submissions: SubmissionService,
  client: Client,
  genesis: WalletRow,
  target: WalletRow,
  xrp: string,
): Promise<void> {
  if (await activated(client, target.address)) return;
  const out = await step(db, submissions, `bootstrap:fund:${target.role}:${target.address}`, {
    account: genesis.address,
    tx: { TransactionType: 'Payment', Destination: target.address, Amount: xrpToDrops(xrp).toString() },
    purpose: 'bootstrap',
  });
  if (out.status !== 'success') throw new Error(`Funding ${target.role} failed: ${out.result}`);
}

async function trustRlusd(db: Db, submissions: SubmissionService, holder: WalletRow, issuer: string) {
  const out = await step(db, submissions, `bootstrap:trust-rlusd:${holder.address}`, {
    account: holder.address,
    tx: {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: RLUSD_CURRENCY_HEX, issuer, value: TRUST_LIMIT },
    },
    purpose: 'bootstrap',
  });
  if (out.status !== 'success') throw new Error(`RLUSD trust line of ${holder.role} failed: ${out.result}`);
}

/** Platform wallets of a public network: recorded once, funded by the operator. */
export async function ensurePublicPlatformWallets(db: Db, keyring: Keyring): Promise<void> {
  await ensureRole(db, keyring, PLATFORM_ROLES.fee);
  await ensureRole(db, keyring, PLATFORM_ROLES.service);
}

export async function bootstrapStandalone(opts: {
  db: Db;
  keyring: Keyring;
  submissions: SubmissionService;
  client: Client;
  settings: BootstrapSettings;
  log?: SubmissionLog;
}): Promise<BootstrapReport> {
  const { db, keyring, submissions, client, settings } = opts;
  const genesis = await recordGenesis(db, keyring);
  const issuer = await ensureRole(db, keyring, PLATFORM_ROLES.rlusdIssuer);
  const maker = await ensureRole(db, keyring, PLATFORM_ROLES.marketMaker);
  const fee = await ensureRole(db, keyring, PLATFORM_ROLES.fee);
  const service = await ensureRole(db, keyring, PLATFORM_ROLES.service);
  const poolXrp = new Decimal(settings.poolXrp);
  const poolRlusd = poolXrp.mul(settings.rlusdPerXrp).toFixed();

  // Independent steps go out together (one ledger each round instead of one per transaction).
  await Promise.all([
    fundFromGenesis(db, submissions, client, genesis, issuer, PLATFORM_WALLET_XRP),
    fundFromGenesis(db, submissions, client, genesis, maker, poolXrp.add(PLATFORM_WALLET_XRP).toFixed()),
    fundFromGenesis(db, submissions, client, genesis, fee, PLATFORM_WALLET_XRP),
    fundFromGenesis(db, submissions, client, genesis, service, PLATFORM_WALLET_XRP),
  ]);
  await Promise.all([
    step(db, submissions, `bootstrap:default-ripple:${issuer.address}`, {
      account: issuer.address,
      tx: { TransactionType: 'AccountSet', SetFlag: AccountSetAsfFlags.asfDefaultRipple },
      purpose: 'bootstrap',
    }).then((o) => {
      if (o.status !== 'success') throw new Error(`DefaultRipple on the RLUSD issuer failed: ${o.result}`);
    }),
    trustRlusd(db, submissions, maker, issuer.address),
    trustRlusd(db, submissions, fee, issuer.address),
  ]);
  const funded = await step(db, submissions, `bootstrap:rlusd-to-maker:${maker.address}`, {
    account: issuer.address,
    tx: {
      TransactionType: 'Payment',
      Destination: maker.address,
      Amount: { currency: RLUSD_CURRENCY_HEX, issuer: issuer.address, value: poolRlusd },
    },
    purpose: 'bootstrap',
  });
  if (funded.status !== 'success') throw new Error(`RLUSD for the market maker failed: ${funded.result}`);

  const amm = await createPool(opts, maker, issuer.address, settings, poolRlusd);
  return {
    rlusdIssuer: issuer.address,
    marketMaker: maker.address,
    feeWallet: fee.address,
    serviceWallet: service.address,
    amm,
  };
}

async function createPool(
  opts: { db: Db; submissions: SubmissionService; client: Client; log?: SubmissionLog },
  maker: WalletRow,
  issuer: string,
  settings: BootstrapSettings,
  poolRlusd: string,
): Promise<BootstrapReport['amm']> {
  try {
    await opts.client.request({
      command: 'amm_info',
      asset: { currency: 'XRP' },
      asset2: { currency: RLUSD_CURRENCY_HEX, issuer },
      ledger_index: 'validated',
    });
    return { created: true, result: 'exists' };
  } catch {
    // no pool yet (actNotFound) or the ledger has no AMM support: try to create it
  }
  const out = await step(opts.db, opts.submissions, `bootstrap:amm-create:${maker.address}`, {
    account: maker.address,
    tx: {
      TransactionType: 'AMMCreate',
      Amount: xrpToDrops(settings.poolXrp).toString(),
      Amount2: { currency: RLUSD_CURRENCY_HEX, issuer, value: poolRlusd },
      TradingFee: settings.tradingFee,
    },
    purpose: 'bootstrap',
  });
  if (out.status !== 'success') {
    opts.log?.warn({ result: out.result }, 'XRP/RLUSD AMM pool could not be created');
    return { created: false, result: out.result };
  }
  return { created: true, result: out.result };
}
