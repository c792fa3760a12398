import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  TRANSFER_MEMO_MAX,
  transferResponseSchema,
  transferSchema,
  type TransferRequest,
  type TransferResponse,
  type WalletBalance,
  WALLETS_NOTIFICATION_MS,
  dropsToXrp,
  formatMoney,
  parseXrpDrops,
  shortAddress,
} from '@ledgerpad/shared';
import { CopyButton } from '../../components/copy-button';
import { FormErrors, SelectField, TextAreaField, TextField } from '../../components/form-field';
import { CloseActions, ConfirmActions, Modal, ModalActions, SubmitActions } from '../../components/modal';
import { apiPost, userMessage } from '../../lib/api';
import { requestResolver } from '../../lib/form-resolver';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { runSigned } from '../../lib/signer';
import { WalletKindBadge } from '../../components/wallet-kind-badge';
import { useLedgerNetwork } from './api';
import { MESSAGES } from './messages';
import { sanitizeAmount } from '../../lib/amount-input';
import { availableXrp, spendableDrops, tokenBalance, walletReserves } from '../../lib/wallet-funds';
import { compareDecimal } from './money';
import { tokenKey, tokenLabel } from './tokens';

const XRP = 'XRP';
const DESTINATION_TAG_MESSAGE = 'Destination tag must be a whole number from 0 to 4294967295.';

interface TransferForm {
  recipient: string;
  amount: string;
  /** 'XRP' or `${currencyCode}|${issuer}` of a held token. */
  token: string;
  memo: string;
  destinationTag: string;
  /** Hidden from people; a bot fills it and the transfer is dropped (spec §5). */
  honeypot: string;
}

interface Attempt {
  /** Idempotency-Key: one per confirmed transfer, the same for a Try Again of it. */
  key: string;
  request: TransferRequest;
  /** What the confirm step and the result show. */
  amount: string;
  unit: string;
}

type Step =
  | { name: 'form' }
  | { name: 'confirm'; attempt: Attempt }
  | { name: 'success'; attempt: Attempt; result: TransferResponse }
  | { name: 'error'; attempt: Attempt; message: string };

/**
 * Transfer (spec §4): form → confirm step → success (hash, delivered amount) or error with Try Again.
 * The amount is checked against what is available (XRP: balance − reserve; a token: its balance)
 * before anything is sent; the server checks again and its reason is shown if it refuses.
 */
export function TransferModal({
  wallet,
  ownWallets,
  onClose,
  onSettled,
}: {
  wallet: WalletBalance;
  /** The user's other wallets, offered as recipients. */
  ownWallets: Array<{ wallet_address: string; wallet_name: string | null }>;
  onClose: () => void;
  /** After a transfer answered (either way): balances may have changed. */
  onSettled: () => void;
}) {
  const errorId = useId();
  const [step, setStep] = useState<Step>({ name: 'form' });
  const held = wallet.tokens.filter((t) => compareDecimal(t.value, '0') === 1);
  // What a transfer can send: available (fees still owed and transactions in flight taken off) less
  // its own network fee — the server's rule, so sending exactly 'Available' goes through (issue 39).
  const reserves = walletReserves(wallet);
  const xrpAvailable = reserves
    ? dropsToXrp(spendableDrops(wallet, reserves, { transactions: 1 }))
    : availableXrp(wallet);

  const tokenOf = (key: string) => held.find((t) => tokenKey(t) === key);
  // A token's: its balance less its platform fees still owed (the server's requireToken rule).
  const availableOf = (key: string) => {
    if (key === XRP) return xrpAvailable;
    const t = tokenOf(key);
    return t ? tokenBalance(wallet, t.currencyCode, t.issuer) : '0';
  };
  const unitOf = (key: string) => {
    const t = tokenOf(key);
    return t ? tokenLabel(t) : XRP;
  };

  const toRequest = (v: TransferForm): TransferRequest => {
    const token = tokenOf(v.token);
    return {
      walletId: wallet.id,
      recipient: v.recipient.trim(),
      amount: v.amount.trim(),
      token: token ? { currency: token.currencyCode, issuer: token.issuer } : null,
      memo: v.memo ? v.memo : null,
      destinationTag: v.destinationTag === '' ? undefined : Number(v.destinationTag),
    };
  };

  // The server's schema first ('Please fill all fields', the address check), then what it can't
  // know here: the available amount and the sending wallet itself.
  const resolver = requestResolver<TransferForm>(transferSchema, toRequest, (values, errors) => {
    const amount = values.amount.trim();
    if (!errors.amount && amount) {
      const isXrp = !tokenOf(values.token);
      if (isXrp && parseXrpDrops(amount) === undefined) {
        errors.amount = { type: 'format', message: 'Enter an XRP amount with at most 6 decimals.' };
      } else if (compareDecimal(amount, '0') !== 1) {
        errors.amount = { type: 'min', message: 'Amount must be greater than zero.' };
      } else if (compareDecimal(amount, availableOf(values.token)) === 1) {
        errors.amount = { type: 'max', message: MESSAGES.exceedsAvailable };
      }
    }
    if (!errors.recipient && values.recipient.trim() === wallet.wallet_address) {
      errors.recipient = { type: 'self', message: 'You cannot send to the same wallet.' };
    }
    if (errors.destinationTag) errors.destinationTag = { type: 'range', message: DESTINATION_TAG_MESSAGE };
  });

  const {
    register,
    handleSubmit,
    setValue,
    watch,
    trigger,
    formState: { errors, isSubmitted },
  } = useForm<TransferForm>({
    resolver,
    defaultValues: { recipient: '', amount: '', token: XRP, memo: '', destinationTag: '', honeypot: '' },
  });
  const selected = watch('token');
  const others = ownWallets.filter((w) => w.wallet_address !== wallet.wallet_address);

  const network = useLedgerNetwork();
  // Custodial: the server signs. Browser key / wallet app: the server answers the exact payment,
  // signed here or in the app, then checked and sent by the server (lib/signer).
  const send = useMutation({
    mutationFn: async (attempt: Attempt) =>
      transferResponseSchema.parse(
        await runSigned(
          wallet,
          () =>
            apiPost('/api/wallets/transfer', attempt.request, {
              headers: { 'Idempotency-Key': attempt.key },
            }),
          `${attempt.key}.signed`,
          network,
        ),
      ),
    onSuccess: (result, attempt) => setStep({ name: 'success', attempt, result }),
    onError: (err, attempt) =>
      setStep({ name: 'error', attempt, message: userMessage(err, MESSAGES.transferFailed) }),
    onSettled,
  });
  const sending = send.isPending;

  const review = handleSubmit((values) => {
    // A filled honeypot is a bot: nothing is sent, and it learns nothing.
    if (values.honeypot) {
      setStep({
        name: 'error',
        attempt: { key: '', request: toRequest(values), amount: '', unit: '' },
        message: MESSAGES.transferFailed,
      });
      return;
    }
    setStep({
      name: 'confirm',
      attempt: {
        key: newIdempotencyKey(),
        request: toRequest(values),
        amount: values.amount.trim(),
        unit: unitOf(values.token),
      },
    });
  });

  const title =
    step.name === 'success' ? 'Transfer sent' : step.name === 'error' ? 'Transfer failed' : 'Send';

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !sending && onClose()}
      dismissible={!sending}
      title={title}
      description={
        step.name === 'form' ? (
          <>
            From <strong>{wallet.wallet_name ?? 'Wallet'}</strong>{' '}
            <code title={wallet.wallet_address}>{shortAddress(wallet.wallet_address)}</code>{' '}
            <WalletKindBadge kind={wallet.kind} app={wallet.wallet_app} />
          </>
        ) : undefined
      }
      className="transfer-modal"
    >
      {step.name === 'form' && (
        <form className="form" onSubmit={(e) => void review(e)} noValidate>
          <TextField
            label="Recipient address"
            autoComplete="off"
            spellCheck={false}
            placeholder="r… or X…"
            invalid={Boolean(errors.recipient)}
            errorId={errorId}
            {...register('recipient')}
          />
          {others.length > 0 && (
            <div className="chips" aria-label="Send to one of your wallets">
              {others.map((w) => (
                <button
                  key={w.wallet_address}
                  type="button"
                  className="chip"
                  onClick={() => {
                    setValue('recipient', w.wallet_address, { shouldDirty: true });
                    if (isSubmitted) void trigger();
                  }}
                >
                  {w.wallet_name ?? shortAddress(w.wallet_address)}
                </button>
              ))}
            </div>
          )}
          <div className="field-pair">
            <TextField
              label="Amount"
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.00"
              invalid={Boolean(errors.amount)}
              errorId={errorId}
              hint={`Available: ${formatMoney(availableOf(selected), tokenOf(selected) ? 'token' : 'XRP')} ${unitOf(selected)}`}
              {...register('amount', {
                onChange: (e: { target: HTMLInputElement }) => {
                  const clean = sanitizeAmount(e.target.value, tokenOf(selected) ? undefined : 6);
                  if (clean !== e.target.value) setValue('amount', clean);
                },
              })}
            />
            <SelectField
              label="Token"
              {...register('token', { onChange: () => isSubmitted && void trigger('amount') })}
            >
              <option value={XRP}>XRP</option>
              {held.map((t) => (
                <option key={tokenKey(t)} value={tokenKey(t)}>
                  {tokenLabel(t)}
                </option>
              ))}
            </SelectField>
          </div>
          <TextField
            label="Destination tag (optional)"
            inputMode="numeric"
            autoComplete="off"
            invalid={Boolean(errors.destinationTag)}
            errorId={errorId}
            {...register('destinationTag', {
              onChange: (e: { target: HTMLInputElement }) => {
                const digits = e.target.value.replace(/\D/g, '').slice(0, 10);
                if (digits !== e.target.value) setValue('destinationTag', digits);
              },
            })}
          />
          <TextAreaField
            label="Memo (optional)"
            rows={2}
            maxLength={TRANSFER_MEMO_MAX}
            invalid={Boolean(errors.memo)}
            errorId={errorId}
            {...register('memo')}
          />
          {/* Off-screen, unlabelled for people, skipped by the keyboard: only bots fill it. */}
          <div className="honeypot" aria-hidden="true">
            <label>
              Leave this empty
              <input tabIndex={-1} autoComplete="off" {...register('honeypot')} />
            </label>
          </div>
          <FormErrors
            id={errorId}
            messages={[
              errors.recipient?.message,
              errors.amount?.message,
              errors.token?.message,
              errors.destinationTag?.message,
              errors.memo?.message,
            ]}
          />
          <SubmitActions onCancel={onClose} label="Review" />
        </form>
      )}

      {step.name === 'confirm' && (
        <div className="transfer-review">
          <p className="muted">You are about to send</p>
          <p className="review-amount">
            {formatMoney(step.attempt.amount, step.attempt.unit)} <span>{step.attempt.unit}</span>
          </p>
          <dl className="review-list">
            <div>
              <dt>From</dt>
              <dd>
                {wallet.wallet_name ?? 'Wallet'} <code>{wallet.wallet_address}</code>
              </dd>
            </div>
            <div>
              <dt>To</dt>
              <dd>
                <code>{step.attempt.request.recipient}</code>
              </dd>
            </div>
            {step.attempt.request.destinationTag != null && (
              <div>
                <dt>Destination tag</dt>
                <dd>{step.attempt.request.destinationTag}</dd>
              </div>
            )}
            {step.attempt.request.memo && (
              <div>
                <dt>Memo</dt>
                <dd className="memo">{step.attempt.request.memo}</dd>
              </div>
            )}
          </dl>
          <p className="muted small">
            Ledger payments can&apos;t be reversed. A small network fee in XRP is added.
            {wallet.kind === 'browser' && ' You sign it in this browser (your passphrase if it is locked).'}
            {wallet.kind === 'external' && ' You approve it in your wallet app.'}
          </p>
          <ConfirmActions
            pending={sending}
            onBack={() => setStep({ name: 'form' })}
            onConfirm={() => send.mutate(step.attempt)}
            label={sending ? 'Sending…' : 'Confirm and send'}
          />
        </div>
      )}

      {step.name === 'success' && (
        <div className="transfer-result" role="status">
          <p className="result-icon success" aria-hidden="true">
            ✓
          </p>
          <p className="review-amount">
            {formatMoney(step.result.delivered_amount || step.attempt.amount, step.attempt.unit)}{' '}
            <span>{step.attempt.unit}</span>
          </p>
          <p className="muted">delivered to {shortAddress(step.attempt.request.recipient)}</p>
          <div className="hash-row">
            <span className="muted small">Transaction</span>
            <code className="hash">{step.result.hash}</code>
            <CopyButton
              value={step.result.hash}
              label="Copy transaction hash"
              copiedMessage="Hash copied"
              failedMessage="Failed to copy the hash."
              duration={WALLETS_NOTIFICATION_MS}
            />
          </div>
          <CloseActions onClose={onClose} />
        </div>
      )}

      {step.name === 'error' && (
        <div className="transfer-result">
          <p className="result-icon failure" aria-hidden="true">
            !
          </p>
          <p role="alert" className="form-error">
            {step.message}
          </p>
          <ModalActions>
            <button type="button" className="btn-secondary" onClick={() => setStep({ name: 'form' })}>
              Edit
            </button>
            {step.attempt.key && (
              <button
                type="button"
                disabled={sending}
                onClick={() => {
                  setStep({ name: 'confirm', attempt: step.attempt });
                  send.mutate(step.attempt);
                }}
              >
                {sending ? 'Sending…' : 'Try Again'}
              </button>
            )}
          </ModalActions>
        </div>
      )}
    </Modal>
  );
}
