import { AccountSetAsfFlags, PaymentFlags, TrustSetFlags } from 'xrpl';
import type { TxRequest } from '../../ledger/submission-service';
import { Decimal, devAllocationAmount, TRUST_LINE_MAX_LIMIT, type VestingTranche } from '@ledgerpad/shared';

// The deploy as a graph of ledger transactions. Each step names the account that signs it and the
// steps it depends on; the job submits a step as soon as every dependency has applied to the open
// ledger (engine result tesSUCCESS), so the whole chain normally lands in one or two ledger closes
// instead of one close per transaction. Steps of one account get consecutive sequences in the order
// they are submitted, which the dependencies make deterministic where order matters.
//
// Ordering rules taken from rippled (SetAccount.cpp, SetTrust.cpp, AMMCreate.cpp):
// - asfRequireAuth can only be set while the issuer owns nothing (tecOWNERS), so it precedes every
//   trust line to the issuer;
// - DefaultRipple must be on before the holders' lines are created, or the issuer's side of each
//   line gets NoRipple and the token cannot ripple through the issuer (AMM and book trades);
// - under RequireAuth the issuer authorizes each line (TrustSet tfSetfAuth) before paying into it;
// - the blackhole comes last, after the pool exists: if anything fails before it, the issuer can
//   still sign and the staged wallets can be recovered.

/** rippled's ACCOUNT_ONE: no key can sign for it, so a regular key set to it is a black hole. */
export const BLACKHOLE_ADDRESS = 'rrrrrrrrrrrrrrrrrrrrBZbvji';

const ASF_REQUIRE_AUTH = AccountSetAsfFlags.asfRequireAuth;
const ASF_DISABLE_MASTER = AccountSetAsfFlags.asfDisableMaster;
const ASF_DEFAULT_RIPPLE = AccountSetAsfFlags.asfDefaultRipple;
/** XLS-85: holders may escrow the issuer's token. Set before the blackhole, it can never be cleared. */
const ASF_ALLOW_TRUSTLINE_LOCKING = AccountSetAsfFlags.asfAllowTrustLineLocking;
const TF_SETF_AUTH = TrustSetFlags.tfSetfAuth;

export type DeployAccount = 'user' | 'issuer' | 'hot';

export interface PlanInput {
  userAddress: string;
  issuerAddress: string;
  hotAddress: string;
  feeAddress: string | null;
  /** The ledger's currency code of the token (3 characters or 40 hex). */
  currency: string;
  supply: string;
  /** Issued to the user's wallet. */
  devAmount: string;
  /** Issued to the hot wallet and deposited in the pool. */
  hotAmount: string;
  pair: 'XRP' | 'RLUSD';
  /** XRP pair: drops deposited in the pool. RLUSD pair: the RLUSD value. */
  liquidity: string;
  rlusd: { currency: string; issuer: string } | null;
  issuerFundDrops: string;
  hotFundDrops: string;
  serviceFeeDrops: string;
  tradingFee: number;
  requireAuth: boolean;
  blackhole: boolean;
  /**
   * 'Burn the LP' (issue 37, docs/launch-protection.md): the hot wallet, which holds every LP token
   * AMMCreate issued, is blackholed right after the pool opens, so no key can ever withdraw it.
   */
  burnLp?: boolean;
  /** The dev allocation's vesting tranches (docs/vesting.md); absent or empty: not locked. */
  vesting?: VestingTranche[] | null;
  /** The creator's first buy from the new pool (docs/launch-protection.md); absent: none. */
  firstBuy?: FirstBuyPlan | null;
  /**
   * Funded from a self-custody wallet (docs/self-custody.md "Deploy"): the creator's wallet cannot
   * sign mid-job, so it opens no line here. The dev allocation is the issuer's Check to it; the first
   * buy is the hot wallet's buy into itself, then the hot wallet's Check of those tokens to it; under
   * RequireAuth the issuer pre-authorizes the creator's line (limit 0, tfSetfAuth) before it is
   * blackholed. The wallet cashes both Checks with one intent after the job.
   */
  selfFunded?: boolean;
  /** Self-funded RLUSD pair: the wallet's Check of the pool's RLUSD, cashed by the hot wallet. */
  rlusdCheck?: string | null;
  /**
   * An anti-sniper window (docs/launch-protection.md "Anti-sniper window on instant-AMM launches"):
   * the hot wallet is the window's curve account. It receives the pool's XRP and tokens but opens no
   * pool: the bonding module's ladder sells for the window and its graduation opens the pool and
   * burns the LP. The first buy is the curve account's Payment of `deliverMin` tokens (bought at the
   * curve's plain price) to the creator, before the ladder's first offer.
   */
  window?: boolean;
}

/**
 * The first buy as fixed at enqueue: the hot wallet (funded by the creator for it) pays `drops` into
 * the new pool and the pool's tokens go to the creator's wallet, at least `deliverMin` (the XLS-30
 * swap-out, docs/launch-protection.md); `feeDrops` is the platform's trading fee on it. With `batch`,
 * AMMCreate, the buy and the fee are one tfAllOrNothing Batch of the hot wallet: one ledger, nothing
 * between them. Without Batch on the ledger they are plan steps right after AMMCreate.
 */
export interface FirstBuyPlan {
  drops: string;
  feeDrops: string;
  deliverMin: string;
  batch: boolean;
}

/** The step that locks tranche `index` (1-based) of the dev allocation. */
export const lockStepName = (index: number): string => `lock-dev-${index}`;

/**
 * The EscrowCreate locking one tranche of the dev allocation: from the dev's wallet to itself,
 * released by EscrowFinish after its FinishAfter. No CancelAfter: a cancel would hand the tokens
 * back early (docs/vesting.md). The deploy job's step, and a self-custody wallet's intent after it.
 */
export function devLockTx(
  userAddress: string,
  issuerAddress: string,
  currency: string,
  t: VestingTranche,
): TxRequest {
  return {
    TransactionType: 'EscrowCreate',
    Destination: userAddress,
    Amount: { currency, issuer: issuerAddress, value: t.amount },
    FinishAfter: t.unlockAt,
  };
}

export interface PlannedStep {
  name: string;
  account: DeployAccount;
  after: string[];
  tx: TxRequest;
  /**
   * A Batch step: these transactions of `account`, in order, in one tfAllOrNothing Batch (`tx` is
   * the first of them). Their intent keys are the step's key and each one's name.
   */
  inner?: Array<{ name: string; tx: TxRequest }>;
  /**
   * Dependents wait for this step's validation, not its open-ledger result. Set on the payments
   * that create the deploy's accounts: a new account's first Sequence is the index of the ledger
   * that validates its creation, so transactions signed for it while the creation is only in the
   * open ledger carry sequences guessed from that ledger. Had the creation slipped a ledger (a
   * crash losing the open ledger, a payment left out of consensus), the first of them met
   * tefPAST_SEQ while a later one — the supply's issue — applied ahead of the trust line it needed
   * (tecPATH_DRY: the first-buy crash test under load).
   */
  validateFirst?: boolean;
}

/**
 * The dev allocation and the hot wallet's share of the supply. The allocation is rounded down to the
 * supply's precision (15 significant digits in all, the schema's limit), so both parts and their sum
 * are exact in the ledger's 16-digit representation and add up to the supply.
 */
export function splitSupply(supply: string, devPercent: string): { dev: string; hot: string } {
  const dev = devAllocationAmount(supply, devPercent);
  return { dev: dev.toFixed(), hot: new Decimal(supply).minus(dev).toFixed() };
}

type AddStep = (name: string, account: DeployAccount, after: string[], tx: TxRequest) => void;

/**
 * Both launches open alike: the user funds the issuer and the second account (the hot wallet or the
 * curve account), then the issuer turns DefaultRipple on. Returns the list and its `add`.
 */
function openPlan(
  issuer: { address: string; drops: string },
  second: { step: string; address: string; drops: string },
): { steps: PlannedStep[]; add: AddStep } {
  const steps: PlannedStep[] = [];
  const add: AddStep = (name, account, after, tx) => void steps.push({ name, account, after, tx });
  add('fund-issuer', 'user', [], {
    TransactionType: 'Payment',
    Destination: issuer.address,
    Amount: issuer.drops,
  });
  add(second.step, 'user', [], {
    TransactionType: 'Payment',
    Destination: second.address,
    Amount: second.drops,
  });
  for (const step of steps) step.validateFirst = true;
  add('issuer-default-ripple', 'issuer', ['fund-issuer'], {
    TransactionType: 'AccountSet',
    SetFlag: ASF_DEFAULT_RIPPLE,
  });
  return { steps, add };
}

/**
 * An account's keys thrown away, once `after` has applied: a regular key no one holds, then no
 * master key. rippled refuses asfDisableMaster while the account has neither a regular key nor a
 * signer list (tecNO_ALTERNATIVE_KEY), hence ACCOUNT_ONE as the regular key rather than none.
 */
function addBlackhole(
  add: AddStep,
  after: string[],
  account: DeployAccount = 'issuer',
  prefix: 'blackhole' | 'burn-lp' = 'blackhole',
): void {
  add(`${prefix}-regular-key`, account, after, {
    TransactionType: 'SetRegularKey',
    RegularKey: BLACKHOLE_ADDRESS,
  });
  add(`${prefix}-disable-master`, account, [`${prefix}-regular-key`], {
    TransactionType: 'AccountSet',
    SetFlag: ASF_DISABLE_MASTER,
  });
}

export function planDeploy(p: PlanInput): PlannedStep[] {
  const token = (value: string) => ({ currency: p.currency, issuer: p.issuerAddress, value });
  const dev = new Decimal(p.devAmount).gt(0);
  const buy = p.firstBuy && BigInt(p.firstBuy.drops) > 0n ? p.firstBuy : null;
  const self = p.selfFunded === true;
  // The first buy lands in the creator's own trust line: opened (and authorized) as the dev line.
  // Self-funded, the wallet opens it after the job (its claim); the issuer only pre-authorizes it.
  const userLine = !self && (dev || buy !== null);
  const preAuthorize = self && p.requireAuth && (dev || buy !== null);
  const { steps, add } = openPlan(
    { address: p.issuerAddress, drops: p.issuerFundDrops },
    { step: 'fund-hot-wallet', address: p.hotAddress, drops: p.hotFundDrops },
  );
  const issuerReady = ['issuer-default-ripple'];
  if (p.requireAuth) {
    add('issuer-require-auth', 'issuer', ['issuer-default-ripple'], {
      TransactionType: 'AccountSet',
      SetFlag: ASF_REQUIRE_AUTH,
    });
    issuerReady.push('issuer-require-auth');
  }
  const lock = dev && (p.vesting?.length ?? 0) > 0;
  if (dev) {
    // Before the blackhole (below): once the issuer cannot sign, nobody can set or clear the flag,
    // so the holders' escrows of this token stay possible, and no one can ever refuse them. Set for
    // every dev allocation, locked at deploy or not: a deployer who locks it later can (issue 35:
    // and the risk panel tells a real lock from a conditional escrow).
    add('issuer-allow-locking', 'issuer', issuerReady, {
      TransactionType: 'AccountSet',
      SetFlag: ASF_ALLOW_TRUSTLINE_LOCKING,
    });
  }
  add('hot-trust-line', 'hot', ['fund-hot-wallet', ...issuerReady], {
    TransactionType: 'TrustSet',
    LimitAmount: token(p.supply),
  });
  if (p.rlusd) {
    add('rlusd-trust-line', 'hot', ['fund-hot-wallet'], {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: p.rlusd.currency, issuer: p.rlusd.issuer, value: p.liquidity },
    });
  }
  if (userLine) {
    add('dev-trust-line', 'user', issuerReady, {
      TransactionType: 'TrustSet',
      LimitAmount: token(p.supply),
    });
  }
  const hotLineReady = ['hot-trust-line'];
  const devLineReady = userLine ? ['dev-trust-line'] : [];
  if (p.requireAuth) {
    add('authorize-hot-line', 'issuer', ['hot-trust-line'], {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: p.currency, issuer: p.hotAddress, value: '0' },
      Flags: TF_SETF_AUTH,
    });
    hotLineReady.push('authorize-hot-line');
    if (userLine || preAuthorize) {
      // Self-funded, before the line exists: rippled's TrustSet with tfSetfAuth creates the line
      // authorized (limit 0 on the issuer's side), and the wallet's own TrustSet later keeps it so.
      add('authorize-dev-line', 'issuer', userLine ? ['dev-trust-line'] : issuerReady, {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: p.currency, issuer: p.userAddress, value: '0' },
        Flags: TF_SETF_AUTH,
      });
      devLineReady.push('authorize-dev-line');
    }
  }
  add('issue-supply', 'issuer', hotLineReady, {
    TransactionType: 'Payment',
    Destination: p.hotAddress,
    Amount: token(p.hotAmount),
  });
  if (dev && self) {
    // A Check the wallet cashes after the job (its line opened then): after the issuer's settings
    // (asfRequireAuth refuses an issuer that owns anything), before the blackhole.
    add('dev-allocation', 'issuer', issuerReady, {
      TransactionType: 'CheckCreate',
      Destination: p.userAddress,
      SendMax: token(p.devAmount),
    });
  } else if (dev) {
    add('dev-allocation', 'issuer', devLineReady, {
      TransactionType: 'Payment',
      Destination: p.userAddress,
      Amount: token(p.devAmount),
    });
  }
  if (lock && !self) {
    // One escrow per tranche (devLockTx).
    for (const t of p.vesting!) {
      add(
        lockStepName(t.index),
        'user',
        ['dev-allocation', 'issuer-allow-locking'],
        devLockTx(p.userAddress, p.issuerAddress, p.currency, t),
      );
    }
  }
  const poolReady = ['issue-supply', 'fund-hot-wallet'];
  if (p.rlusd && self) {
    // Self-funded: the wallet's funding intent wrote a Check of the RLUSD to the hot wallet (then
    // funded, so a valid destination); the hot wallet cashes exactly that once its line exists.
    add('send-rlusd', 'hot', ['rlusd-trust-line'], {
      TransactionType: 'CheckCash',
      CheckID: p.rlusdCheck ?? '',
      Amount: { currency: p.rlusd.currency, issuer: p.rlusd.issuer, value: p.liquidity },
    });
    poolReady.push('send-rlusd');
  } else if (p.rlusd) {
    add('send-rlusd', 'user', ['rlusd-trust-line'], {
      TransactionType: 'Payment',
      Destination: p.hotAddress,
      Amount: { currency: p.rlusd.currency, issuer: p.rlusd.issuer, value: p.liquidity },
    });
    poolReady.push('send-rlusd');
  }
  if (p.window) return planWindowRest(p, steps, add, { dev, buy, devLineReady, token });
  const ammCreate: TxRequest = {
    TransactionType: 'AMMCreate',
    Amount: p.rlusd
      ? { currency: p.rlusd.currency, issuer: p.rlusd.issuer, value: p.liquidity }
      : p.liquidity,
    Amount2: token(p.hotAmount),
    TradingFee: p.tradingFee,
  };
  if (!buy) {
    add('create-amm', 'hot', poolReady, ammCreate);
  } else {
    // The hot wallet spends the creator's XRP (sent with its funding) through the new pool into the
    // creator's line: a partial payment limited by SendMax takes exactly what those drops buy.
    // Self-funded, into its own line (a cross-currency payment to oneself), then a Check to the
    // creator's wallet (below).
    const firstBuy: TxRequest = {
      TransactionType: 'Payment',
      Destination: self ? p.hotAddress : p.userAddress,
      Amount: token(p.hotAmount),
      SendMax: buy.drops,
      DeliverMin: token(buy.deliverMin),
      Flags: PaymentFlags.tfPartialPayment,
    };
    const fee: TxRequest | null =
      p.feeAddress && BigInt(buy.feeDrops) > 0n
        ? { TransactionType: 'Payment', Destination: p.feeAddress, Amount: buy.feeDrops }
        : null;
    if (buy.batch) {
      steps.push({
        name: 'create-amm',
        account: 'hot',
        after: [...poolReady, ...(self ? [] : devLineReady)],
        tx: ammCreate,
        inner: [
          { name: 'amm-create', tx: ammCreate },
          { name: 'first-buy', tx: firstBuy },
          ...(fee ? [{ name: 'first-buy-fee', tx: fee }] : []),
        ],
      });
    } else {
      add('create-amm', 'hot', poolReady, ammCreate);
      add('first-buy', 'hot', ['create-amm', ...(self ? [] : devLineReady)], firstBuy);
      if (fee) add('first-buy-fee', 'hot', ['first-buy'], fee);
    }
  }
  // The hot wallet's last transaction before its burn (or hand-over) is the first buy's.
  const poolDone =
    buy && !buy.batch
      ? p.feeAddress && BigInt(buy.feeDrops) > 0n
        ? 'first-buy-fee'
        : 'first-buy'
      : 'create-amm';
  const hotDone = [poolDone];
  if (self && buy) {
    // The bought tokens (at least DeliverMin, the swap-out the preview showed) reach the creator's
    // wallet through the hot wallet's Check of exactly that figure, written before the LP burn: a
    // Check stays cashable by its destination after its writer's keys are gone. Whatever the ledger
    // delivered above it (its 16th digit) stays with the hot wallet.
    add('first-buy-check', 'hot', [poolDone], {
      TransactionType: 'CheckCreate',
      Destination: p.userAddress,
      SendMax: token(buy.deliverMin),
    });
    hotDone.push('first-buy-check');
  }
  if (p.feeAddress && BigInt(p.serviceFeeDrops) > 0n) {
    // Charged once the pool exists: a deploy that fails earlier costs no service fee.
    add('service-fee', 'user', ['create-amm'], {
      TransactionType: 'Payment',
      Destination: p.feeAddress,
      Amount: p.serviceFeeDrops,
    });
  }
  if (p.burnLp) {
    // The hot wallet's last transaction was AMMCreate, which gave it every LP token of the pool:
    // blackholed now, those LP tokens can never be redeemed (AMMWithdraw) nor sent anywhere.
    addBlackhole(add, hotDone, 'hot', 'burn-lp');
  }
  if (p.blackhole) {
    const issuerDone = [
      'create-amm',
      ...(poolDone !== 'create-amm' ? [poolDone] : []),
      'issue-supply',
      ...(dev ? ['dev-allocation'] : []),
      ...(dev ? ['issuer-allow-locking'] : []),
      ...(preAuthorize ? ['authorize-dev-line'] : []),
    ];
    addBlackhole(add, issuerDone);
  }
  return steps;
}

/**
 * The rest of a window launch's plan, once the supply is issued to the curve account: the creator's
 * first buy out of it (and its fee), the service fee and the issuer's blackhole. No pool and no LP
 * burn here: the window's graduation does both (modules/bonding/jobs.ts).
 */
function planWindowRest(
  p: PlanInput,
  steps: PlannedStep[],
  add: AddStep,
  s: {
    dev: boolean;
    buy: FirstBuyPlan | null;
    devLineReady: string[];
    token: (value: string) => { currency: string; issuer: string; value: string };
  },
): PlannedStep[] {
  let issued = 'issue-supply';
  if (s.buy) {
    add('first-buy', 'hot', ['issue-supply', ...s.devLineReady], {
      TransactionType: 'Payment',
      Destination: p.userAddress,
      Amount: s.token(s.buy.deliverMin),
    });
    issued = 'first-buy';
    if (p.feeAddress && BigInt(s.buy.feeDrops) > 0n) {
      add('first-buy-fee', 'hot', ['first-buy'], {
        TransactionType: 'Payment',
        Destination: p.feeAddress,
        Amount: s.buy.feeDrops,
      });
    }
  }
  if (p.feeAddress && BigInt(p.serviceFeeDrops) > 0n) {
    add('service-fee', 'user', [issued], {
      TransactionType: 'Payment',
      Destination: p.feeAddress,
      Amount: p.serviceFeeDrops,
    });
  }
  addBlackhole(add, ['issue-supply', ...(s.dev ? ['dev-allocation', 'issuer-allow-locking'] : [])]);
  return steps;
}

export interface CurvePlanInput {
  userAddress: string;
  issuerAddress: string;
  curveAddress: string;
  feeAddress: string | null;
  currency: string;
  /** The whole supply, issued to the curve account. */
  supply: string;
  rlusd: { currency: string; issuer: string } | null;
  issuerFundDrops: string;
  curveFundDrops: string;
  serviceFeeDrops: string;
}

/** A trust-line limit no RLUSD balance of the curve can reach. */
const CURVE_RLUSD_LIMIT = TRUST_LINE_MAX_LIMIT;

/**
 * A curve launch (docs/bonding-curve.md): the issuer and the platform-held curve account, the whole
 * supply issued to the curve account, and the issuer blackholed at once (a curve's supply is fixed).
 * The curve's offers are the bonding module's (its keeper posts them once the token is listed).
 */
export function planCurveLaunch(p: CurvePlanInput): PlannedStep[] {
  const { steps, add } = openPlan(
    { address: p.issuerAddress, drops: p.issuerFundDrops },
    { step: 'fund-curve', address: p.curveAddress, drops: p.curveFundDrops },
  );
  add('curve-trust-line', 'hot', ['fund-curve', 'issuer-default-ripple'], {
    TransactionType: 'TrustSet',
    LimitAmount: { currency: p.currency, issuer: p.issuerAddress, value: p.supply },
  });
  if (p.rlusd) {
    add('curve-rlusd-line', 'hot', ['fund-curve'], {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: p.rlusd.currency, issuer: p.rlusd.issuer, value: CURVE_RLUSD_LIMIT },
    });
  }
  add('issue-to-curve', 'issuer', ['curve-trust-line'], {
    TransactionType: 'Payment',
    Destination: p.curveAddress,
    Amount: { currency: p.currency, issuer: p.issuerAddress, value: p.supply },
  });
  if (p.feeAddress && BigInt(p.serviceFeeDrops) > 0n) {
    add('service-fee', 'user', ['issue-to-curve', ...(p.rlusd ? ['curve-rlusd-line'] : [])], {
      TransactionType: 'Payment',
      Destination: p.feeAddress,
      Amount: p.serviceFeeDrops,
    });
  }
  addBlackhole(add, ['issue-to-curve']);
  return steps;
}
