import { useEffect, useId, useRef, useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  AIRDROP_MESSAGES,
  createAirdropSchema,
  isLpCurrency,
  LISTING_MESSAGES,
  type CreateAirdropRequest,
  type WalletBalance,
  type WalletToken,
  Decimal,
  formatCount,
  formatMoney,
  shortAddress,
} from '@ledgerpad/shared';
import { FormErrors, SelectField, TextAreaField, TextField } from '../../components/form-field';
import { LogoPicker } from '../../components/logo-picker';
import { CloseActions, Modal, ModalActions } from '../../components/modal';
import { DeliberateButton } from '../../components/deliberate-button';
import { userMessage } from '../../lib/api';
import { requestResolver } from '../../lib/form-resolver';
import { useWalletBalances, walletLabel } from '../../lib/wallet-balances';
import { availableXrp } from '../../lib/wallet-funds';
import { createAirdrop, useAllocated } from './api';
import { airdropKeys } from './keys';
import { walletKeys } from '../../lib/query-keys';
import { useLedgerAction } from '../../lib/ledger-action';
import type { SigningWallet } from '../../lib/signer';
import { usePlatformFees } from '../../lib/platform-fees';
import { useJobStatus } from '../../lib/use-job-status';
import { checkBalance, coversFee, deadlineOk, grouped, leftover, recipients } from './rules';
import './airdrops.css';

// /airdrop/create (spec 001 §3, §5): the creation form checked with the server's own schema, plus
// what only the browser can see (the wallet's balance less what its airdrops already allocated, the
// XRP for the fee), then the creation job's progress; done, it goes to the board.

interface Values {
  sourceWalletId: string;
  /** `${currencyCode}|${issuer}` of one of the wallet's holdings. */
  token: string;
  projectName: string;
  tagline: string;
  logoUrl: string;
  description: string;
  perUserType: 'fixed' | 'random';
  totalTokenAmount: string;
  fixedAmount: string;
  randomMin: string;
  randomMax: string;
  /** datetime-local text, the user's local time. */
  deadline: string;
  website: string;
  twitter: string;
  trustlineMode: 'auto' | 'manual';
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A Date as datetime-local text. */
const localInput = (d: Date) =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

const defaults = (): Values => ({
  sourceWalletId: '',
  token: '',
  projectName: '',
  tagline: '',
  logoUrl: '',
  description: '',
  perUserType: 'fixed',
  totalTokenAmount: '',
  fixedAmount: '',
  randomMin: '',
  randomMax: '',
  deadline: localInput(new Date(Date.now() + 7 * 86_400_000)),
  website: '',
  twitter: '',
  trustlineMode: 'auto',
});

const splitToken = (token: string) => {
  const [tokenCode = '', issuerAddress = ''] = token.split('|');
  return { tokenCode, issuerAddress };
};

function toRequest(v: Values): CreateAirdropRequest {
  const fixed = v.perUserType === 'fixed';
  const deadline = new Date(v.deadline);
  return {
    sourceWalletId: v.sourceWalletId === '' ? (undefined as never) : Number(v.sourceWalletId),
    ...splitToken(v.token),
    projectName: v.projectName,
    tagline: v.tagline,
    logoUrl: v.logoUrl,
    description: v.description,
    perUserType: v.perUserType,
    totalTokenAmount: v.totalTokenAmount,
    fixedAmount: fixed ? v.fixedAmount : undefined,
    randomMin: fixed ? undefined : v.randomMin,
    randomMax: fixed ? undefined : v.randomMax,
    deadline: Number.isNaN(deadline.getTime()) ? v.deadline : deadline.toISOString(),
    website: v.website,
    twitter: v.twitter,
    trustlineMode: v.trustlineMode,
  };
}

/** Holdings a wallet can airdrop: positive balances, LP tokens (03… codes) excluded. */
const airdroppable = (w: WalletBalance | undefined): WalletToken[] =>
  (w?.tokens ?? []).filter((t) => !isLpCurrency(t.currencyCode) && new Decimal(t.value || '0').gt(0));

const FIELD_LABELS: Record<string, string> = {
  totalTokenAmount: 'Total token amount',
  fixedAmount: 'Amount per user',
  randomMin: 'Minimum per user',
  randomMax: 'Maximum per user',
  tagline: 'Tagline',
  description: 'Description',
  website: 'Website',
  twitter: 'Twitter',
};

const tokenKey = (t: WalletToken) => `${t.currencyCode}|${t.issuer}`;

export function CreateAirdropPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const balances = useWalletBalances();
  const fees = usePlatformFees();
  const errorsId = useId();
  const [uploading, setUploading] = useState(false);
  // One Idempotency-Key per airdrop: a retry after a lost answer is the same airdrop.
  const create = useLedgerAction(
    ({ body, wallet }: { body: Parameters<typeof createAirdrop>[0]; wallet: SigningWallet }, key) =>
      createAirdrop(body, wallet, key),
  );
  const submitting = create.busy;
  const [submitError, setSubmitError] = useState<string>();
  const [logoRefused, setLogoRefused] = useState<string>();
  const [confirm, setConfirm] = useState<string[]>();
  const [jobId, setJobId] = useState<string>();

  const wallets = balances.data ?? [];
  // The browser-only checks read these through refs: the resolver is made once.
  const ctx = useRef<{ wallets: WalletBalance[]; allocated?: string; fee?: string }>({ wallets: [] });

  const [resolver] = useState(() =>
    requestResolver<Values>(createAirdropSchema, toRequest, (v, fieldErrors: FieldErrors<Values>) => {
      // The schema's problems are keyed by the request's names (tokenCode), the form's by its own.
      const errors = fieldErrors as FieldErrors<Values & { tokenCode: string }>;
      if (v.sourceWalletId === '')
        errors.sourceWalletId = { type: 'required', message: AIRDROP_MESSAGES.selectWallet };
      if (v.token === '') {
        errors.tokenCode = { type: 'required', message: AIRDROP_MESSAGES.token };
        delete (errors as FieldErrors<{ issuerAddress: string }>).issuerAddress;
      }
      // The schema names fields as the request does; the form says what the labels say.
      for (const [name, label] of Object.entries(FIELD_LABELS)) {
        const e = (errors as Record<string, { message?: string } | undefined>)[name];
        // Only where a message names the field ('tagline must …'); the link rules already say 'Twitter'.
        if (e?.message?.startsWith(name)) e.message = label + e.message.slice(name.length);
      }
      if (!errors.deadline && !deadlineOk(v.deadline, Date.now()))
        errors.deadline = { type: 'validate', message: AIRDROP_MESSAGES.deadline };
      const w = ctx.current.wallets.find((x) => String(x.id) === v.sourceWalletId);
      const t = airdroppable(w).find((x) => tokenKey(x) === v.token);
      if (w && t && !errors.totalTokenAmount) {
        const check = checkBalance(v.totalTokenAmount, ctx.current.allocated, t.value);
        if (check.ok === false)
          errors.totalTokenAmount = {
            type: 'validate',
            message: AIRDROP_MESSAGES.insufficientTokens(check.available),
          };
      }
      const fee = ctx.current.fee;
      if (w && fee && !coversFee(w.balance, w.ledgerReserve, fee))
        errors.sourceWalletId = { type: 'validate', message: AIRDROP_MESSAGES.insufficientXrp(fee) };
    }),
  );

  const form = useForm<Values>({ defaultValues: defaults(), resolver, mode: 'onSubmit' });
  const { register, handleSubmit, watch, setValue, formState } = form;
  const values = watch();
  const wallet = wallets.find((w) => String(w.id) === values.sourceWalletId);
  const tokens = airdroppable(wallet);
  const token = tokens.find((t) => tokenKey(t) === values.token);
  const allocated = useAllocated(values.sourceWalletId, token?.currencyCode, token?.issuer);
  ctx.current = { wallets, allocated: allocated.data?.allocated, fee: fees.data?.airdrop_fee_xrp };

  // A new wallet has other holdings: the token choice starts over.
  useEffect(() => {
    if (values.token && wallet && !tokens.some((t) => tokenKey(t) === values.token)) setValue('token', '');
  }, [values.token, wallet, tokens, setValue]);

  const count = recipients({
    perUserType: values.perUserType,
    total: values.totalTokenAmount,
    fixedAmount: values.fixedAmount,
    randomMin: values.randomMin,
    randomMax: values.randomMax,
  });
  const rest =
    values.perUserType === 'fixed' ? leftover(values.totalTokenAmount, values.fixedAmount) : undefined;
  const balanceCheck = token
    ? checkBalance(values.totalTokenAmount, allocated.data?.allocated, token.value)
    : undefined;

  const send = async (v: Values) => {
    setConfirm(undefined);
    setSubmitError(undefined);
    try {
      const body = toRequest(v);
      const source = wallets.find((w) => w.id === body.sourceWalletId);
      if (!source) return setSubmitError(AIRDROP_MESSAGES.selectWallet);
      const created = await create.run({ body, wallet: source });
      if (created) setJobId(created.jobId);
    } catch (err) {
      setSubmitError(userMessage(err, AIRDROP_MESSAGES.createFailed, { lead: true }));
    }
  };

  const onSubmit = handleSubmit((v) => {
    // A refused logo is never dropped silently: choose a valid one or clear the file.
    if (logoRefused) return setSubmitError(LISTING_MESSAGES.logoRefused);
    const warnings: string[] = [];
    const t = airdroppable(wallets.find((w) => String(w.id) === v.sourceWalletId)).find(
      (x) => tokenKey(x) === v.token,
    );
    if (t && checkBalance(v.totalTokenAmount, allocated.data?.allocated, t.value).ok === 'unknown')
      warnings.push(
        "What this wallet's other airdrops already allocated could not be read: the allocation may exceed the balance.",
      );
    if (v.perUserType === 'random')
      warnings.push(
        'Random draws may leave tokens over; they go back to the source wallet when the airdrop ends.',
      );
    const left = v.perUserType === 'fixed' ? leftover(v.totalTokenAmount, v.fixedAmount) : undefined;
    if (left)
      warnings.push(`${grouped(left)} tokens cannot be claimed and will go back to the source wallet.`);
    if (warnings.length > 0) setConfirm(warnings);
    else void send(v);
  });

  const close = () => {
    if (window.history.length > 1) void navigate(-1);
    else void navigate('/airdrops');
  };

  const errors = formState.errors as FieldErrors<Values> &
    FieldErrors<{ tokenCode: string; issuerAddress: string }>;
  const messages = Object.values(errors).map((e) => (e as { message?: string } | undefined)?.message);

  return (
    <div className="airdrop-create-page">
      <div className="airdrop-create-head">
        <h1>Create Airdrop</h1>
        <button
          type="button"
          className="icon-button"
          aria-label="Close"
          onClick={close}
          disabled={submitting}
        >
          <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      <p className="muted">
        {fees.data
          ? `Creating an airdrop costs ${fees.data.airdrop_fee_xrp} XRP, plus the reserve of its own wallet.`
          : 'Loading fees…'}
      </p>
      <form className="panel form airdrop-form" noValidate onSubmit={(e) => void onSubmit(e)}>
        {formState.isSubmitted && messages.some(Boolean) && <FormErrors id={errorsId} messages={messages} />}
        <div className="airdrop-form-grid">
          <SelectField
            label="Source wallet"
            invalid={!!errors.sourceWalletId}
            errorId={errorsId}
            hint={wallet ? `Available: ${formatMoney(availableXrp(wallet), 'XRP')} XRP` : undefined}
            {...register('sourceWalletId')}
          >
            <option value="">{balances.isPending ? 'Loading wallets…' : 'Select a wallet'}</option>
            {wallets.map((w) => (
              <option key={w.id} value={String(w.id)}>
                {walletLabel(w)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Token"
            invalid={!!errors.tokenCode || !!errors.issuerAddress}
            errorId={errorsId}
            disabled={!wallet}
            hint={
              token
                ? `Balance: ${grouped(token.value)}` +
                  (allocated.data && new Decimal(allocated.data.allocated).gt(0)
                    ? ` (already allocated: ${grouped(allocated.data.allocated)})`
                    : '')
                : wallet && tokens.length === 0
                  ? 'This wallet holds no token it can airdrop.'
                  : undefined
            }
            {...register('token')}
          >
            <option value="">{wallet ? 'Select a token' : 'Select a wallet first'}</option>
            {tokens.map((t) => (
              <option key={tokenKey(t)} value={tokenKey(t)}>
                {t.currency} — {shortAddress(t.issuer)}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Project name"
            maxLength={50}
            invalid={!!errors.projectName}
            errorId={errorsId}
            {...register('projectName')}
          />
          <TextField
            label="Tagline"
            maxLength={120}
            hint="Optional"
            invalid={!!errors.tagline}
            errorId={errorsId}
            {...register('tagline')}
          />
        </div>
        <LogoPicker
          purpose="airdrop"
          hint="Optional. JPEG, PNG or WebP, up to 5 MB, square or near-square."
          onBusy={setUploading}
          error={errors.logoUrl?.message}
          onRefused={setLogoRefused}
          onUploaded={(u) => setValue('logoUrl', u?.servedUrl ?? '')}
        />
        <TextAreaField
          label="Description"
          rows={3}
          maxLength={1000}
          hint={`${values.description.length}/1000`}
          invalid={!!errors.description}
          errorId={errorsId}
          {...register('description')}
        />
        <fieldset className="segmented airdrop-type">
          <legend className="field-label">Per-user amount</legend>
          <label className="segment">
            <input type="radio" value="fixed" {...register('perUserType')} />
            <span>Fixed</span>
          </label>
          <label className="segment">
            <input type="radio" value="random" {...register('perUserType')} />
            <span>Random</span>
          </label>
        </fieldset>
        <div className="airdrop-form-grid">
          <TextField
            label="Total token amount"
            inputMode="decimal"
            autoComplete="off"
            invalid={!!errors.totalTokenAmount}
            errorId={errorsId}
            {...register('totalTokenAmount')}
          />
          {values.perUserType === 'fixed' ? (
            <TextField
              label="Amount per user"
              inputMode="decimal"
              autoComplete="off"
              invalid={!!errors.fixedAmount}
              errorId={errorsId}
              {...register('fixedAmount')}
            />
          ) : (
            <>
              <TextField
                label="Minimum per user"
                inputMode="decimal"
                autoComplete="off"
                invalid={!!errors.randomMin || !!errors.randomMax}
                errorId={errorsId}
                {...register('randomMin')}
              />
              <TextField
                label="Maximum per user"
                inputMode="decimal"
                autoComplete="off"
                invalid={!!errors.randomMax}
                errorId={errorsId}
                {...register('randomMax')}
              />
            </>
          )}
        </div>
        <div className="airdrop-summary" data-testid="recipients">
          {count ? (
            <p>
              Max recipients: <strong>{formatCount(count.max)}</strong>
              {count.range && (
                <span className="muted">
                  {' '}
                  (estimated {formatCount(count.range.low)}–{formatCount(count.range.high)})
                </span>
              )}
            </p>
          ) : (
            <p className="muted">Enter the total and the amount per user to see how many users it serves.</p>
          )}
          {rest && (
            <p className="airdrop-warning">
              {grouped(rest)} tokens are left over; they go back to the source wallet.
            </p>
          )}
          {balanceCheck?.ok === false && (
            <p className="airdrop-warning">{AIRDROP_MESSAGES.insufficientTokens(balanceCheck.available)}</p>
          )}
        </div>
        <div className="airdrop-form-grid">
          <TextField
            label="Deadline"
            type="datetime-local"
            min={localInput(new Date())}
            invalid={!!errors.deadline}
            errorId={errorsId}
            {...register('deadline')}
          />
          <SelectField
            label="Trust line"
            hint="Auto sets the claimer's trust line before paying."
            {...register('trustlineMode')}
          >
            <option value="auto">Auto</option>
            <option value="manual">Manual (claimers add it first)</option>
          </SelectField>
          <TextField
            label="Website"
            placeholder="https://…"
            invalid={!!errors.website}
            errorId={errorsId}
            {...register('website')}
          />
          <TextField
            label="Twitter"
            placeholder="https://x.com/…"
            invalid={!!errors.twitter}
            errorId={errorsId}
            {...register('twitter')}
          />
        </div>
        {submitError && (
          <p role="alert" className="form-error">
            {submitError}
          </p>
        )}
        <div className="form-actions">
          <button type="button" className="btn-secondary" onClick={close} disabled={submitting}>
            Cancel
          </button>
          <button type="submit" disabled={uploading || submitting}>
            {uploading ? 'Uploading logo…' : submitting ? 'Creating…' : 'Create Airdrop'}
          </button>
        </div>
      </form>

      <Modal
        open={confirm !== undefined}
        onOpenChange={(open) => !open && setConfirm(undefined)}
        title="Create this airdrop?"
        role="alertdialog"
      >
        <ul className="airdrop-confirm">
          {confirm?.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
        <ModalActions>
          <button type="button" className="btn-secondary" onClick={() => setConfirm(undefined)}>
            Cancel
          </button>
          <DeliberateButton onClick={() => void send(values)}>Create anyway</DeliberateButton>
        </ModalActions>
      </Modal>

      {jobId && (
        <CreateProgress
          jobId={jobId}
          onDone={() => {
            void queryClient.invalidateQueries({ queryKey: airdropKeys.all() });
            void queryClient.invalidateQueries({ queryKey: walletKeys.all() });
            void navigate('/airdrops');
          }}
          onClose={() => setJobId(undefined)}
        />
      )}
    </div>
  );
}

const STEP_LABELS: Record<string, string> = {
  'create-wallet': 'Create the airdrop wallet',
  fund: 'Fund the airdrop wallet',
  fee: 'Pay the airdrop fee',
  trust: 'Set its trust line',
  deposit: 'Deposit the tokens',
  activate: 'Activate the airdrop',
};
const ICONS = { pending: '○', running: '◌', done: '✓', failed: '✕' } as const;
const POLL_MS = 1500;
/** The creation job moves tokens in a few ledgers; past this the screen stops waiting. */
const JOB_TIMEOUT_MS = 5 * 60_000;

/** The creation job's progress (socket, then polling); completed, it hands over to the board. */
function CreateProgress({
  jobId,
  onDone,
  onClose,
}: {
  jobId: string;
  onDone: () => void;
  onClose: () => void;
}) {
  const { status, timedOut } = useJobStatus(jobId, {
    firstPollMs: 0,
    pollMs: POLL_MS,
    timeoutMs: JOB_TIMEOUT_MS,
  });
  const completed = status?.status === 'completed';
  useEffect(() => {
    if (!completed) return;
    const t = setTimeout(onDone, 800);
    return () => clearTimeout(t);
  }, [completed, onDone]);
  const failed = status?.status === 'failed' || timedOut;
  return (
    <Modal
      open
      onOpenChange={(open) => !open && failed && onClose()}
      dismissible={failed}
      role="alertdialog"
      title="Creating your airdrop"
    >
      <p className={failed ? 'form-error' : undefined} role="status">
        {completed
          ? 'Airdrop created. Opening the board…'
          : failed
            ? `${AIRDROP_MESSAGES.createFailed}: ${status?.error ?? 'it did not finish in time; check the board before trying again'}`
            : 'Moving the tokens to the airdrop wallet…'}
      </p>
      <ol className="airdrop-steps" aria-label="Creation steps">
        {(status?.steps ?? []).map((s) => (
          <li key={s.name} className={`airdrop-step ${s.status}`} data-status={s.status}>
            <span className="airdrop-step-icon" aria-hidden="true">
              {ICONS[s.status]}
            </span>{' '}
            {STEP_LABELS[s.name] ?? s.name}
          </li>
        ))}
        {!status && <li className="airdrop-step running">Starting…</li>}
      </ol>
      {failed && <CloseActions onClose={onClose} label="Close" />}
    </Modal>
  );
}
