import { useId, useState } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import { toast } from 'sonner';
import {
  ADMIN_MESSAGES,
  refundRequestSchema,
  type RefundResult,
  type StagedWalletView,
} from '@ledgerpad/shared';
import { CopyButton } from '../../components/copy-button';
import { FormErrors, SelectField, TextField } from '../../components/form-field';
import { CloseActions, ConfirmActions, Modal, SubmitActions } from '../../components/modal';
import { ApiError, userMessage } from '../../lib/api';
import { requestResolver } from '../../lib/form-resolver';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { refund, type RefundRequest } from './api';

/** One refund the admin asked for: a staged wallet and which of its assets. */
export interface RefundTarget {
  wallet: StagedWalletView;
  type: RefundRequest['type'];
  /** Its balance of that asset, as shown (the server computes what it sends). */
  amount: string;
  /** 'XRP', the token's ticker or 'RLUSD'. */
  asset: string;
}

export interface Destination {
  address: string;
  label: string;
}

interface DestinationForm {
  /** An address from the list, or ''. */
  chosen: string;
  /** A typed address; wins over the list when filled. */
  typed: string;
}

interface Attempt {
  request: RefundRequest;
  /** One per refund the admin confirms; kept for a Try Again after a dropped connection. */
  key: string;
}

type Step =
  | { name: 'form' }
  | { name: 'confirm'; attempt: Attempt; error?: string }
  | { name: 'done'; result: RefundResult };

/**
 * A refund from a staged wallet: destination (chosen from the owner's and the platform's wallets, or
 * typed) → confirm → the transaction hash. Everything closes only through its own buttons while the
 * refund is on its way.
 */
export function RefundDialog({
  target,
  destinations,
  onClose,
  onBusy,
  onRefunded,
}: {
  target: RefundTarget | null;
  destinations: Destination[];
  onClose: () => void;
  onBusy: (busy: boolean) => void;
  onRefunded: (result: RefundResult) => void;
}) {
  if (!target) return null;
  return (
    <RefundFlow
      key={`${target.wallet.id}:${target.type}`}
      target={target}
      destinations={destinations}
      onClose={onClose}
      onBusy={onBusy}
      onRefunded={onRefunded}
    />
  );
}

function RefundFlow({
  target,
  destinations,
  onClose,
  onBusy,
  onRefunded,
}: {
  target: RefundTarget;
  destinations: Destination[];
  onClose: () => void;
  onBusy: (busy: boolean) => void;
  onRefunded: (result: RefundResult) => void;
}) {
  const errorId = useId();
  const [step, setStep] = useState<Step>({ name: 'form' });
  const [busy, setBusy] = useState(false);
  const base = { wallet_id: target.wallet.id, type: target.type };
  const toRequest = (v: DestinationForm): RefundRequest => ({
    ...base,
    destination_address: v.typed.trim() || v.chosen,
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<DestinationForm>({
    // The route's own schema: an empty or malformed destination is 'Choose or enter destination wallet'.
    resolver: requestResolver<DestinationForm>(refundRequestSchema, toRequest, (values, errs) => {
      if (
        !(errs as Record<string, unknown>).destination_address &&
        toRequest(values).destination_address === target.wallet.wallet_address
      )
        (errs as Record<string, FieldError>).destination_address = {
          type: 'self',
          message: 'The destination is the wallet itself.',
        };
    }),
    defaultValues: { chosen: '', typed: '' },
  });
  const destinationError = (errors as Record<string, FieldError | undefined>).destination_address?.message;

  const review = handleSubmit((values) =>
    setStep({ name: 'confirm', attempt: { request: toRequest(values), key: newIdempotencyKey() } }),
  );

  const send = async (attempt: Attempt) => {
    setBusy(true);
    onBusy(true);
    try {
      const result = await refund(attempt.request, attempt.key);
      setStep({ name: 'done', result });
      toast.success(`Refunded ${result.amount} ${target.asset}`);
      onRefunded(result);
    } catch (err) {
      // A refusal or a ledger failure (4xx) is final for this key: a new attempt gets a new one.
      // A dropped connection or a 5xx keeps it, so Try Again cannot refund twice.
      const final = err instanceof ApiError && err.status >= 400 && err.status < 500;
      setStep({
        name: 'confirm',
        attempt: final ? { ...attempt, key: newIdempotencyKey() } : attempt,
        error: userMessage(err, ADMIN_MESSAGES.refundFailed, { lead: true }),
      });
    } finally {
      setBusy(false);
      onBusy(false);
    }
  };

  const label = `Refund ${target.asset}`;
  const destinationName = (address: string) => destinations.find((d) => d.address === address)?.label;

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !busy && onClose()}
      dismissible={!busy}
      title={step.name === 'done' ? 'Refund sent' : label}
      className="admin-refund-modal"
    >
      {step.name === 'form' && (
        <form className="form" onSubmit={(e) => void review(e)} noValidate>
          <p className="muted">
            From #{target.wallet.id} <span className="address">{target.wallet.wallet_address}</span>, holding{' '}
            {target.amount} {target.asset}.
          </p>
          <SelectField
            label="Destination wallet"
            invalid={Boolean(destinationError)}
            errorId={errorId}
            {...register('chosen')}
          >
            <option value="">{ADMIN_MESSAGES.chooseDestination}</option>
            {destinations.map((d) => (
              <option key={d.address} value={d.address}>
                {d.label} · {d.address}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Or enter an address"
            placeholder="r…"
            autoComplete="off"
            spellCheck={false}
            invalid={Boolean(destinationError)}
            errorId={errorId}
            {...register('typed')}
          />
          <FormErrors id={errorId} messages={[destinationError]} />
          <SubmitActions onCancel={onClose} label="Review" />
        </form>
      )}

      {step.name === 'confirm' && (
        <div className="admin-refund-review">
          <dl className="admin-dl">
            <div className="admin-dl-item">
              <dt>Asset</dt>
              <dd>{target.asset}</dd>
            </div>
            <div className="admin-dl-item">
              <dt>From</dt>
              <dd className="address">{target.wallet.wallet_address}</dd>
            </div>
            <div className="admin-dl-item">
              <dt>To</dt>
              <dd>
                {destinationName(step.attempt.request.destination_address) && (
                  <span className="muted">{destinationName(step.attempt.request.destination_address)} </span>
                )}
                <span className="address">{step.attempt.request.destination_address}</span>
              </dd>
            </div>
          </dl>
          <p className="muted">
            {target.type === 'xrp'
              ? 'All the XRP the ledger does not require is sent. If the account can be deleted (no trust lines, 256 ledgers old) it is deleted instead, which returns its reserves too.'
              : `All of its ${target.asset} is sent.`}
          </p>
          {step.error && (
            <p role="alert" className="form-error">
              {step.error}
            </p>
          )}
          <ConfirmActions
            pending={busy}
            onBack={() => setStep({ name: 'form' })}
            onConfirm={() => void send(step.attempt)}
            label={busy ? 'Refunding…' : step.error ? 'Try again' : 'Confirm refund'}
          />
        </div>
      )}

      {step.name === 'done' && (
        <div className="admin-refund-review" role="status">
          <p>
            {step.result.amount} {target.asset} sent to <span className="address">{step.result.to}</span>
            {step.result.method === 'account-delete' ? ' by deleting the account (AccountDelete).' : '.'}
          </p>
          <div className="field">
            <span className="field-label">Transaction hash</span>
            <div className="admin-hash-row">
              <code className="hash" data-testid="refund-hash">
                {step.result.hash}
              </code>
              <CopyButton
                value={step.result.hash}
                label="Copy transaction hash"
                copiedMessage="Transaction hash copied"
                failedMessage="Could not copy the hash."
              />
            </div>
          </div>
          <CloseActions onClose={onClose} />
        </div>
      )}
    </Modal>
  );
}
