import { useEffect, useId, useRef, useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import {
  BONDING_CURVE_SUPPLY,
  BONDING_TOTAL_SUPPLY,
  DEPLOY_DESCRIPTION_MAX,
  DEPLOY_LOCK_MS,
  DEPLOY_MAX_ATTEMPTS,
  DEPLOY_MESSAGES,
  devAllocationAmount,
  ammFeeToTradingFee,
  firstBuyPreview,
  LIQUIDITY_PAIRS,
  RLUSD_CURRENCY_HEX,
  deployCost,
  deployRequestSchema,
  vestingSchema,
  formatCount,
  formatMoney,
  insufficientBalanceLabel,
  MONEY_MESSAGES,
  type DeployFormCore,
  type DeployRequest,
  type FeesConfig,
  type LaunchType,
  type WalletBalance,
  Decimal,
  AMM_FEE_MAX_PERCENT,
  AMM_FEE_MIN_PERCENT,
  AMM_FEE_STEP_PERCENT,
  OWNER_USER_ID,
  serverSigns,
} from '@ledgerpad/shared';
import { FormErrors, SelectField, TextAreaField, TextField } from '../../components/form-field';
import { LogoPicker } from '../../components/logo-picker';
import { hasStatus, userMessage } from '../../lib/api';
import { requestResolver } from '../../lib/form-resolver';
import { useLedgerAction } from '../../lib/ledger-action';
import type { SigningWallet } from '../../lib/signer';
import type { AllocationClaim } from './progress-modal';
import { usePlatformFees } from '../../lib/platform-fees';
import { useSession } from '../../lib/session';
import { useWalletBalances, walletLabel } from '../../lib/wallet-balances';
import { availableXrp } from '../../lib/wallet-funds';
import { startDeploy } from './api';
import { LaunchFigures } from './launch-figures';
import { ProgressModal } from './progress-modal';
import {
  VESTING_FORM_DEFAULTS,
  VestingPreview,
  VestingSection,
  vestingRequest,
  type VestingValues,
} from './vesting-section';
import './deploy.css';

// /deploy-list (spec 001 §2–§5): the 'Deploy and List Token' form, then the Token Preview with the
// balance checks (the shared `deployCost` rule the server also applies), then the progress modal.

interface Values extends DeployFormCore {
  twitterLink: string;
  telegramLink: string;
  websiteLink: string;
  telegramFileId: string | null;
  launchType: LaunchType;
  walletId: string;
  /** 'Burn the LP' (issue 37): on by default, sent for instant AMM launches. */
  burnLp: boolean;
  /**
   * The anti-sniper window (issue 37): on by default, sent for curve launches and for instant launches
   * paired with XRP from a custodial wallet (there: the pre-pool ladder, then the pool with its LP burned).
   */
  antiSniper: boolean;
  /** 'Lock the dev allocation' (on by default; sent only with an allocation above 0). */
  vesting: VestingValues;
  /** Hidden from people; bots fill it. */
  honeypot: string;
}

const DEFAULTS: Values = {
  name: '',
  ticker: '',
  description: '',
  supply: '',
  devAllocation: '0',
  liquidityAmount: '',
  ammFee: '0.5',
  twitterLink: '',
  telegramLink: '',
  websiteLink: '',
  logoUrl: '',
  telegramFileId: null,
  blackholeIssuer: true,
  requireAuth: false,
  burnLp: true,
  antiSniper: true,
  firstBuyXrp: '',
  liquidityPairType: 'XRP',
  launchType: 'amm',
  walletId: '',
  vesting: VESTING_FORM_DEFAULTS,
  honeypot: '',
};

/**
 * An instant launch's anti-sniper window (docs/launch-protection.md): XRP pairs only, and not from a
 * self-custody wallet yet (the server refuses it: its first buy is the curve account's, custodial).
 */
export const windowAsked = (
  v: Pick<Values, 'launchType' | 'liquidityPairType' | 'antiSniper'>,
  selfCustody = false,
) => v.launchType === 'amm' && v.liquidityPairType === 'XRP' && v.antiSniper && !selfCustody;

const toRequest = (v: Values, selfCustody = false) => ({
  ...v,
  walletId: v.walletId === '' ? undefined : Number(v.walletId),
  // A curve's graduation burns its pool's LP whatever the form says: sent for AMM launches only. A
  // window's pool always burns its LP and its issuer is always blackholed (the server's rule).
  burnLp: v.launchType === 'amm' ? windowAsked(v, selfCustody) || v.burnLp : undefined,
  blackholeIssuer: windowAsked(v, selfCustody) || v.blackholeIssuer,
  requireAuth: !windowAsked(v, selfCustody) && v.requireAuth,
  antiSniper: v.launchType === 'bonding' ? v.antiSniper : windowAsked(v, selfCustody) ? true : undefined,
  // The first buy is an instant XRP-paired launch's; empty means none.
  firstBuyXrp:
    v.launchType === 'amm' && v.liquidityPairType === 'XRP' && v.firstBuyXrp?.trim()
      ? v.firstBuyXrp.trim()
      : undefined,
  vesting: v.launchType === 'amm' ? vestingRequest(v.vesting, v.devAllocation) : undefined,
});

const resolver = requestResolver<Values>(
  deployRequestSchema,
  toRequest,
  (values, errors: FieldErrors<Values>) => {
    // The schema's own message for a missing wallet is about ids; the form has the spec's sentence.
    if (values.walletId === '') errors.walletId = { type: 'required', message: DEPLOY_MESSAGES.wallet };
  },
);

/** The anti-sniper window in words, from the platform's settings (GET /api/config/fees → bonding). */
function antiSniperText(curve: FeesConfig['bonding'] | undefined): string {
  if (!curve) return 'The curve’s prices carry a surcharge for the first minutes, decaying to 0.';
  const s = curve.anti_sniper_window_seconds;
  const span = s % 60 === 0 ? `${s / 60} minute${s === 60 ? '' : 's'}` : `${s} seconds`;
  return `For the first ${span} every buy on the curve — on Ledgerpad or straight on the ledger — pays a surcharge that starts at ${curve.anti_sniper_start_percent}% and steps down to 0. It stays in the curve and goes into the pool at graduation.`;
}

/** The preview's one line of it. */
function windowSummary(curve: FeesConfig['bonding'] | undefined): string {
  const s = curve?.anti_sniper_window_seconds ?? 120;
  const span = s % 60 === 0 ? `${s / 60} minute${s === 60 ? '' : 's'}` : `${s} seconds`;
  return `${span}, a surcharge from ${curve?.anti_sniper_start_percent ?? '25'}% down to 0; then the pool opens with all it raised, its LP burned`;
}

/** The same window on an instant launch: its pre-pool ladder, then the pool (docs/launch-protection.md). */
export function instantWindowText(curve: FeesConfig['bonding'] | undefined): string {
  const s = curve?.anti_sniper_window_seconds ?? 120;
  const span = s % 60 === 0 ? `${s / 60} minute${s === 60 ? '' : 's'}` : `${s} seconds`;
  const start = curve?.anti_sniper_start_percent ?? '25';
  return `For the first ${span} your token sells only on a ladder priced along your pool’s own curve, and every buy — on Ledgerpad or straight on the ledger — pays a surcharge that starts at ${start}% and steps down to 0. When the window ends, the pool opens with your liquidity plus everything the window raised and the tokens not sold, and its LP tokens are burned.`;
}

/** What a curve launch fixes (docs/bonding-curve.md): the curve's supply, no dev share or liquidity. */
const CURVE_FIELDS = {
  supply: BONDING_TOTAL_SUPPLY.toString(),
  devAllocation: '0',
  liquidityAmount: '0',
  blackholeIssuer: true,
  requireAuth: false,
} as const;
type CurveField = keyof typeof CURVE_FIELDS;

const grouped = (v: string | bigint) => formatCount(v.toString());

function safeCost(values: Values, fees: FeesConfig, userId: number, selfCustody: boolean) {
  try {
    // The escrows' reserves count only for a lock the request would carry. A self-custody wallet's
    // deploy also funds the Checks its accounts write to it (the server's own rule).
    const request = toRequest(values, selfCustody);
    const lock = vestingSchema.safeParse(request.vesting);
    return deployCost(
      { ...values, antiSniper: request.antiSniper, vesting: lock.success ? lock.data : undefined },
      fees,
      userId,
      { selfCustody },
    );
  } catch {
    return undefined;
  }
}

const available = (w: WalletBalance) => new Decimal(availableXrp(w));
const rlusdOf = (w: WalletBalance) =>
  new Decimal(w.tokens.find((t) => t.currencyCode === RLUSD_CURRENCY_HEX)?.value ?? 0);

export function DeployPage() {
  const session = useSession();
  const userId = session.status === 'signed-in' ? session.user.id : 0;
  const fees = usePlatformFees();
  const balances = useWalletBalances();
  const [step, setStep] = useState<'form' | 'preview'>('form');
  const [attempts, setAttempts] = useState<number[]>([]);
  const [lockedUntil, setLockedUntil] = useState(0);
  const [now, setNow] = useState(Date.now());
  const [uploading, setUploading] = useState(false);
  const [job, setJob] = useState<{
    id: string;
    ticker: string;
    claim?: AllocationClaim;
  }>();
  const [deployError, setDeployError] = useState<string>();
  // One Idempotency-Key per deploy: a retry after a lost answer is the same deploy, never a second.
  const start = useLedgerAction(({ body, wallet }: { body: DeployRequest; wallet: SigningWallet }, key) =>
    startDeploy(body, wallet, key),
  );
  const deploying = start.busy;
  const errorsId = useId();

  const form = useForm<Values>({ defaultValues: DEFAULTS, resolver, mode: 'onSubmit' });
  const { register, handleSubmit, watch, setValue, formState } = form;
  const values = watch();
  const locked = lockedUntil > now;
  const bonding = values.launchType === 'bonding';
  // A curve launch fixes some fields; switching back gives the person's own values back.
  const saved = useRef<Partial<Pick<Values, CurveField>>>({});
  useEffect(() => {
    const fields = Object.keys(CURVE_FIELDS) as CurveField[];
    if (bonding) {
      for (const f of fields) {
        saved.current = { ...saved.current, [f]: form.getValues(f) };
        setValue(f, CURVE_FIELDS[f] as never);
      }
    } else if (Object.keys(saved.current).length) {
      for (const f of fields) if (saved.current[f] !== undefined) setValue(f, saved.current[f] as never);
      saved.current = {};
    }
  }, [bonding, form, setValue]);
  // An instant launch's window burns the LP, blackholes the issuer and lets anyone hold the token
  // (the server refuses it otherwise): the person's latest choice wins — turning the window on sets
  // those, and turning one of them off turns the window off.
  const walletKind = balances.data?.find((w) => String(w.id) === values.walletId)?.kind;
  const windowOn = windowAsked(values, walletKind !== undefined && !serverSigns(walletKind));
  const windowField = register('antiSniper', {
    onChange: (e: { target: { checked: boolean } }) => {
      if (!e.target.checked || bonding) return;
      setValue('burnLp', true);
      setValue('blackholeIssuer', true);
      setValue('requireAuth', false);
    },
  });
  const offWindow = (when: boolean) => (e: { target: { checked: boolean } }) => {
    if (!bonding && e.target.checked === when) setValue('antiSniper', false);
  };
  useEffect(() => {
    if (!locked) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [locked]);

  const attempt = (): boolean => {
    const t = Date.now();
    setNow(t);
    if (lockedUntil > t) return false;
    const recent = [...attempts.filter((a) => t - a < DEPLOY_LOCK_MS), t];
    setAttempts(recent);
    if (recent.length > DEPLOY_MAX_ATTEMPTS) {
      setLockedUntil(t + DEPLOY_LOCK_MS);
      setAttempts([]);
      return false;
    }
    return true;
  };

  const onPreview = handleSubmit(
    (v) => {
      if (v.honeypot) return; // a bot: nothing happens
      setDeployError(undefined);
      setStep('preview');
    },
    () => undefined,
  );

  const wallets = balances.data ?? [];
  const wallet = wallets.find((w) => String(w.id) === values.walletId);
  // Priced in the preview only: there the values have passed the schema (numbers, not half-typed text).
  const cost =
    step === 'preview' && fees.data
      ? safeCost(values, fees.data, userId, wallet !== undefined && !serverSigns(wallet.kind))
      : undefined;
  const shortXrp = wallet && cost ? new Decimal(cost.xrp).minus(available(wallet)) : undefined;
  const shortRlusd =
    wallet && cost && values.liquidityPairType === 'RLUSD'
      ? new Decimal(cost.rlusd).minus(rlusdOf(wallet))
      : undefined;
  const insufficient = !wallet || !cost || shortXrp!.gt(0) || (shortRlusd !== undefined && shortRlusd.gt(0));
  // A self-custody wallet signs the funding of the new accounts, and the claim (and locks) of a dev
  // allocation and a first buy after the launch (docs/self-custody.md "Deploy"); an RLUSD pool's
  // RLUSD is a Check in the funding.
  const selfCustody = wallet !== undefined && !serverSigns(wallet.kind);

  const deploy = async () => {
    if (start.busy || !attempt()) return;
    setDeployError(undefined);
    try {
      const body = deployRequestSchema.parse(toRequest(values, selfCustody)) as DeployRequest;
      if (!wallet) return setDeployError(DEPLOY_MESSAGES.wallet);
      const started = await start.run({ body, wallet });
      // A self-custody wallet's dev allocation and first buy wait in Checks once the job is done:
      // the progress modal asks the wallet to claim (and lock) them. The first buy's tokens are the
      // preview's swap-out (the shared rule the server signs the Check of).
      const dev = devAllocationAmount(body.supply, body.devAllocation || '0');
      const bought = firstBuyPreview({
        liquidityXrp: body.liquidityAmount,
        poolTokens: new Decimal(body.supply).minus(dev),
        supply: body.supply,
        devAmount: dev,
        lockedAmount: 0,
        buyXrp: body.liquidityPairType === 'XRP' ? (body.firstBuyXrp ?? '') : '',
        tradingFee: ammFeeToTradingFee(body.ammFee),
        feePercent: '0',
      }).tokensOut;
      if (started)
        setJob({
          id: started.jobId,
          ticker: values.ticker,
          ...(selfCustody && (dev.gt(0) || bought.gt(0))
            ? {
                claim: {
                  wallet,
                  amount: dev.toFixed(),
                  firstBuy: bought.toFixed(),
                  locked: Boolean(body.vesting) && dev.gt(0),
                },
              }
            : {}),
        });
    } catch (err) {
      setDeployError(
        hasStatus(err, 429) ? DEPLOY_MESSAGES.tooManyAttempts : userMessage(err, DEPLOY_MESSAGES.failed),
      );
    }
  };

  const fieldErrors = formState.errors;
  const vestingErrors = fieldErrors.vesting as FieldErrors<VestingValues> | undefined;
  const messages = [
    ...Object.entries(fieldErrors)
      .filter(([k]) => k !== 'vesting')
      .map(([, e]) => e?.message),
    ...Object.values(vestingErrors ?? {}).map((e) => (e as { message?: string } | undefined)?.message),
  ];
  const devShare = /^\d+(\.\d+)?$/.test(values.devAllocation)
    ? new Decimal(values.devAllocation)
    : new Decimal(0);
  const showVesting = !bonding && devShare.gt(0);
  const devAmount =
    /^\d+(\.\d+)?$/.test(values.supply) && devShare.gt(0)
      ? new Decimal(values.supply).mul(devShare).div(100).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed()
      : '0';

  return (
    <section className="deploy-page">
      <h1>Deploy and List Token</h1>
      <p className="deploy-fee-notice" data-testid="fee-notice">
        {fees.data
          ? userId === OWNER_USER_ID
            ? 'No service fee for the platform owner. Reserves and liquidity still apply.'
            : `A fee of ${fees.data.service_fee} XRP is charged to deploy a token.`
          : 'Loading fees…'}
      </p>

      {step === 'form' && (
        <form
          className="panel deploy-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!attempt()) return;
            void onPreview(e);
          }}
        >
          {formState.isSubmitted && messages.length > 0 && (
            <FormErrors id={errorsId} messages={[DEPLOY_MESSAGES.formErrors, ...messages]} />
          )}
          {locked && (
            <p role="alert" className="form-error">
              {DEPLOY_MESSAGES.tooManyAttempts}
            </p>
          )}
          <SelectField
            label="Wallet"
            invalid={!!fieldErrors.walletId}
            errorId={errorsId}
            hint={
              wallet
                ? `Available: ${formatMoney(availableXrp(wallet), 'XRP')} XRP${
                    selfCustody
                      ? '. This wallet signs once, here or in its app: the funding of the new issuer and pool accounts, which the platform holds as in every deploy.'
                      : ''
                  }`
                : undefined
            }
            {...register('walletId')}
          >
            <option value="">{balances.isPending ? 'Loading wallets…' : 'Select a wallet'}</option>
            {wallets.map((w) => (
              <option key={w.id} value={String(w.id)}>
                {walletLabel(w)} ({formatMoney(availableXrp(w), 'XRP')} XRP)
              </option>
            ))}
          </SelectField>
          <div className="field">
            <fieldset className="segmented" aria-describedby="launch-type-hint">
              <legend className="field-label">Launch</legend>
              {(
                [
                  ['amm', 'Instant AMM'],
                  ['bonding', 'Bonding curve'],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className="segment">
                  <input type="radio" value={value} {...register('launchType')} />
                  <span>{label}</span>
                </label>
              ))}
            </fieldset>
            <p id="launch-type-hint" className="field-hint">
              {bonding
                ? `A fair launch: ${grouped(BONDING_CURVE_SUPPLY)} tokens sell on a price curve any wallet can trade on the ledger. When they are sold out, what the curve raised goes into an AMM pool at the final price and its LP tokens are locked forever.`
                : 'The token trades at once in an AMM pool you fund with liquidity.'}
            </p>
          </div>
          <div className="deploy-grid">
            <TextField
              label="Token name"
              invalid={!!fieldErrors.name}
              errorId={errorsId}
              maxLength={30}
              {...register('name')}
            />
            <TextField
              label="Ticker"
              invalid={!!fieldErrors.ticker}
              errorId={errorsId}
              maxLength={10}
              {...register('ticker')}
            />
            <TextField
              label="Supply"
              inputMode="decimal"
              invalid={!!fieldErrors.supply}
              errorId={errorsId}
              readOnly={bonding}
              hint={bonding ? 'Fixed for a curve launch.' : undefined}
              {...register('supply')}
            />
            {!bonding && (
              <TextField
                label="Dev allocation (%)"
                inputMode="decimal"
                invalid={!!fieldErrors.devAllocation}
                errorId={errorsId}
                {...register('devAllocation', {
                  // The input clamps to 0–100 (spec §5).
                  onBlur: (e) => {
                    const v = Number(e.target.value);
                    if (Number.isFinite(v) && e.target.value !== '')
                      setValue('devAllocation', String(Math.min(100, Math.max(0, v))));
                  },
                })}
              />
            )}
            <SelectField label="Liquidity pair" {...register('liquidityPairType')}>
              {LIQUIDITY_PAIRS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </SelectField>
            {!bonding && (
              <TextField
                label={`Liquidity amount (${values.liquidityPairType})`}
                inputMode="decimal"
                invalid={!!fieldErrors.liquidityAmount}
                errorId={errorsId}
                {...register('liquidityAmount')}
              />
            )}
            {!bonding && values.liquidityPairType === 'XRP' && (
              <TextField
                label="Your first buy (XRP, optional)"
                inputMode="decimal"
                placeholder="0"
                invalid={!!fieldErrors.firstBuyXrp}
                errorId={errorsId}
                {...register('firstBuyXrp')}
              />
            )}
            <TextField
              label={bonding ? 'Pool fee after graduation (%)' : 'AMM fee (%)'}
              type="number"
              step={AMM_FEE_STEP_PERCENT}
              min={AMM_FEE_MIN_PERCENT}
              max={AMM_FEE_MAX_PERCENT}
              invalid={!!fieldErrors.ammFee}
              errorId={errorsId}
              {...register('ammFee')}
            />
          </div>
          <TextAreaField
            label="Description"
            rows={4}
            invalid={!!fieldErrors.description}
            errorId={errorsId}
            hint={`${values.description.length}/${DEPLOY_DESCRIPTION_MAX}`}
            {...register('description')}
          />
          <LogoPicker
            purpose="deploy"
            hint="JPEG, PNG or WebP, under 1 MB, square or near-square."
            disabled={locked}
            onBusy={setUploading}
            error={fieldErrors.logoUrl?.message}
            onUploaded={(u) => {
              setValue('logoUrl', u?.servedUrl ?? '', { shouldValidate: formState.isSubmitted });
              setValue('telegramFileId', u?.telegramFileId ?? null);
            }}
          />
          <div className="deploy-grid">
            <TextField
              label="Twitter link"
              placeholder="https://x.com/…"
              invalid={!!fieldErrors.twitterLink}
              errorId={errorsId}
              {...register('twitterLink')}
            />
            <TextField
              label="Telegram link"
              placeholder="https://t.me/…"
              invalid={!!fieldErrors.telegramLink}
              errorId={errorsId}
              {...register('telegramLink')}
            />
            <TextField
              label="Website"
              placeholder="https://…"
              invalid={!!fieldErrors.websiteLink}
              errorId={errorsId}
              {...register('websiteLink')}
            />
          </div>
          {showVesting && (
            <VestingSection
              register={register as never}
              errors={vestingErrors}
              enabled={values.vesting.enabled}
              errorId={errorsId}
            />
          )}
          {!bonding && values.liquidityPairType === 'XRP' && (
            <>
              <label className="checkbox">
                <input type="checkbox" disabled={selfCustody} {...windowField} /> Anti-sniper window
                (recommended)
              </label>
              <p className="field-hint" id="anti-sniper-hint">
                {selfCustody
                  ? 'Not yet from a self-custody wallet: this launch opens its pool at once.'
                  : values.antiSniper
                    ? instantWindowText(fees.data?.bonding)
                    : 'Off: the pool opens at once, and the first buyers pay only the pool’s own price.'}
              </p>
            </>
          )}
          {!bonding && (
            <>
              <label className="checkbox">
                <input type="checkbox" {...register('burnLp', { onChange: offWindow(false) })} /> Burn the LP
                (recommended)
              </label>
              <p className="field-hint" id="burn-lp-hint">
                {values.burnLp
                  ? 'Your LP tokens go to an account no key can ever sign for, in the deploy’s own transactions: nobody, you included, can ever withdraw the pool, and the risk panel shows it as burned.'
                  : 'Keep: the LP tokens stay in your “liquidity” wallet and you can withdraw the pool at any time. Buyers see “None of the pool is locked” on the risk panel.'}
              </p>
            </>
          )}
          {bonding && (
            <>
              <label className="checkbox">
                <input type="checkbox" {...windowField} /> Anti-sniper window (recommended)
              </label>
              <p className="field-hint" id="anti-sniper-hint">
                {values.antiSniper
                  ? antiSniperText(fees.data?.bonding)
                  : 'Off: the curve sells at its own price from the first ledger on.'}
              </p>
            </>
          )}
          <label className="checkbox">
            <input
              type="checkbox"
              disabled={bonding}
              {...register('blackholeIssuer', { onChange: offWindow(false) })}
            />{' '}
            Blackhole the issuer (no one can ever mint more or change the token)
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              disabled={bonding}
              {...register('requireAuth', { onChange: offWindow(true) })}
            />{' '}
            Require authorization (holders need your approval)
          </label>
          {windowOn && (
            <p className="field-hint">
              With the anti-sniper window the issuer is blackholed, anyone may hold the token and the pool’s
              LP tokens are burned; changing one of these turns the window off.
            </p>
          )}
          {bonding && (
            <p className="field-hint">
              A curve launch always blackholes its issuer and lets anyone hold the token: the supply is fixed
              and the curve is open to every wallet.
            </p>
          )}
          {/* Off-screen, not display:none: bots fill what they find in the DOM. */}
          <div className="honeypot" aria-hidden="true">
            <label>
              Leave this empty <input tabIndex={-1} autoComplete="off" {...register('honeypot')} />
            </label>
          </div>
          <div className="form-actions">
            <button type="submit" disabled={locked || uploading}>
              {uploading ? 'Uploading logo…' : 'Preview'}
            </button>
          </div>
        </form>
      )}

      {step === 'preview' && (
        <div className="panel deploy-preview" aria-labelledby="preview-title">
          <h2 id="preview-title">Token Preview</h2>
          <div className="deploy-preview-head">
            {values.logoUrl && <img src={values.logoUrl} alt="" width={56} height={56} />}
            <div>
              <strong>{values.name}</strong> <span className="muted">{values.ticker}</span>
            </div>
          </div>
          {bonding ? (
            <CurveFacts values={values} curve={fees.data?.bonding} />
          ) : (
            <dl className="deploy-facts">
              <dt>Supply</dt>
              <dd>{values.supply}</dd>
              <dt>Dev allocation</dt>
              <dd>{values.devAllocation}%</dd>
              <dt>Liquidity</dt>
              <dd>
                {values.liquidityAmount} {values.liquidityPairType}
              </dd>
              <dt>AMM fee</dt>
              <dd>{values.ammFee}%</dd>
              <dt>Issuer</dt>
              <dd>{values.blackholeIssuer ? 'Blackholed after launch' : 'Kept (you can manage it)'}</dd>
              <dt>Require authorization</dt>
              <dd>{values.requireAuth ? 'Yes' : 'No'}</dd>
              <dt>LP tokens</dt>
              <dd data-testid="preview-lp">
                {windowOn
                  ? 'Burned when the pool opens: no one can ever withdraw it'
                  : values.burnLp
                    ? 'Burned at launch: no one can ever withdraw the pool'
                    : 'Kept in your liquidity wallet: you can withdraw the pool (shown to buyers)'}
              </dd>
              {windowOn && (
                <>
                  <dt>Anti-sniper window</dt>
                  <dd data-testid="preview-window">{windowSummary(fees.data?.bonding)}</dd>
                </>
              )}
              {showVesting && (
                <>
                  <dt>Dev allocation lock</dt>
                  <dd>
                    {values.vesting.enabled
                      ? `${values.vesting.cliffPercent}% after ${values.vesting.cliffHours} h, the rest monthly over ${values.vesting.months} months`
                      : 'Not locked'}
                  </dd>
                </>
              )}
            </dl>
          )}
          {!bonding && fees.data && (
            <LaunchFigures
              supply={values.supply}
              devAllocation={values.devAllocation}
              locked={showVesting && values.vesting.enabled}
              liquidityAmount={values.liquidityAmount}
              pair={values.liquidityPairType}
              ammFee={values.ammFee}
              firstBuyXrp={toRequest(values).firstBuyXrp ?? ''}
              feePercent={fees.data.trading_fee_percent ?? '0'}
              ticker={values.ticker}
              window={
                windowOn
                  ? { steps: fees.data.bonding.steps, fineSteps: fees.data.bonding.fine_steps }
                  : undefined
              }
            />
          )}
          {!bonding && showVesting && values.vesting.enabled && (
            <VestingPreview values={values.vesting} allocation={devAmount} ticker={values.ticker} />
          )}
          {cost && (
            <dl className="deploy-facts" data-testid="deploy-cost">
              <dt>Service fee</dt>
              <dd>{cost.serviceFee} XRP</dd>
              <dt>Issuer reserve</dt>
              <dd>{cost.issuerReserve} XRP</dd>
              <dt>
                {bonding
                  ? 'Curve account deposit (back at graduation, less its reserves)'
                  : windowOn
                    ? 'Window ladder deposit (back when the pool opens, less its reserves)'
                    : 'Hot wallet reserve'}
              </dt>
              <dd>{cost.hotWalletReserve} XRP</dd>
              {values.liquidityPairType === 'XRP' && !bonding && (
                <>
                  <dt>Liquidity</dt>
                  <dd>{cost.liquidityXrp} XRP</dd>
                </>
              )}
              <dt>
                {bonding
                  ? 'Network fees'
                  : showVesting && values.vesting.enabled
                    ? 'Trust line and escrow reserves, network fees'
                    : 'Trust line reserve and network fees'}
              </dt>
              <dd>{cost.extras} XRP</dd>
              {cost.firstBuy !== '0' && (
                <>
                  <dt>Your first buy and its platform fee</dt>
                  <dd>
                    {cost.firstBuy} XRP + {cost.firstBuyFee} XRP
                  </dd>
                </>
              )}
              {new Decimal(cost.selfCustodyIssuer).plus(cost.selfCustodyHot).gt(0) && (
                <>
                  <dt>Self-custody: the Checks to your wallet (and its pre-authorized line), network fees</dt>
                  <dd data-testid="self-custody-cost">
                    {new Decimal(cost.selfCustodyIssuer).plus(cost.selfCustodyHot).toFixed()} XRP
                  </dd>
                </>
              )}
              <dt>Total</dt>
              <dd>
                <strong>{cost.xrp} XRP</strong>
                {values.liquidityPairType === 'RLUSD' && !bonding && <> and {cost.rlusd} RLUSD</>}
              </dd>
            </dl>
          )}
          {wallet && shortXrp && shortXrp.gt(0) && (
            <p role="alert" className="form-error">
              {MONEY_MESSAGES.insufficient(available(wallet).toFixed(), cost!.xrp, 'XRP')}
            </p>
          )}
          {wallet && shortRlusd && shortRlusd.gt(0) && (
            <p role="alert" className="form-error">
              {MONEY_MESSAGES.insufficient(rlusdOf(wallet).toFixed(), cost!.rlusd, 'RLUSD')}
            </p>
          )}
          {deployError && (
            <p role="alert" className="form-error">
              {deployError}
            </p>
          )}
          {locked && (
            <p role="alert" className="form-error">
              {DEPLOY_MESSAGES.tooManyAttempts}
            </p>
          )}
          <div className="form-actions">
            <button
              type="button"
              className="btn-secondary"
              onClick={() => setStep('form')}
              disabled={deploying}
            >
              Edit
            </button>
            <button
              type="button"
              onClick={() => void deploy()}
              disabled={insufficient || deploying || locked}
            >
              {deploying
                ? 'Deploying…'
                : wallet && shortXrp?.gt(0)
                  ? insufficientBalanceLabel('XRP')
                  : wallet && shortRlusd?.gt(0)
                    ? insufficientBalanceLabel('RLUSD')
                    : 'Deploy'}
            </button>
          </div>
        </div>
      )}
      {job && <ProgressModal jobId={job.id} ticker={job.ticker} claim={job.claim} />}
    </section>
  );
}

/** The preview of a curve launch: the curve the token gets (the platform's settings right now). */
export function CurveFacts({ values, curve }: { values: Values; curve: FeesConfig['bonding'] | undefined }) {
  const q = values.liquidityPairType;
  if (!curve) return <p className="muted">Loading the curve…</p>;
  const target = q === 'RLUSD' ? curve.graduation_rlusd : curve.graduation_xrp;
  const start = q === 'RLUSD' ? curve.start_price_rlusd : curve.start_price_xrp;
  return (
    <dl className="deploy-facts" data-testid="curve-facts">
      <dt>Launch</dt>
      <dd>Bonding curve, paired with {q}</dd>
      <dt>Supply</dt>
      <dd>{grouped(BONDING_TOTAL_SUPPLY)}</dd>
      <dt>Sold on the curve</dt>
      <dd>{grouped(BONDING_CURVE_SUPPLY)}</dd>
      <dt>First price</dt>
      <dd>
        {start} {q}
      </dd>
      <dt>Graduates when raised</dt>
      <dd>
        {target} {q}
      </dd>
      <dt>Pool fee after graduation</dt>
      <dd>{values.ammFee}%</dd>
      <dt>Issuer</dt>
      <dd>Blackholed at launch</dd>
      <dt>LP tokens</dt>
      <dd>Burned at graduation: no one can ever withdraw the pool</dd>
      {values.antiSniper && (
        <>
          <dt>Anti-sniper fee</dt>
          <dd>{antiSniperText(curve)}</dd>
        </>
      )}
      {curve.snipe_ledgers > 0 && (
        <>
          <dt>Anti-snipe</dt>
          <dd>
            At most {grouped(curve.snipe_tokens)} tokens a ledger for the first {curve.snipe_ledgers} ledgers
          </dd>
        </>
      )}
    </dl>
  );
}
