import { useId, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { setTrustlineLimitSchema } from '@ledgerpad/shared';
import { sanitizeAmount } from '../lib/amount-input';
import { requestResolver } from '../lib/form-resolver';
import { FormErrors, TextField } from './form-field';
import { Modal, SubmitActions } from './modal';

interface LimitForm {
  limit: string;
}

// The limit rule of the shared request schema (the dashboard's request borrows the same field), so
// the form refuses what the server would: empty is 'Please fill in all fields.', then the format and
// the 16 significant digits.
const resolver = requestResolver<LimitForm>(setTrustlineLimitSchema.pick({ limit: true }), (v) => v);

/**
 * Set limit: how much of a token a wallet accepts (a TrustSet), the one form for the Wallets page and
 * the dashboard's trust lines (issue 41). The caller says whose line it is and sends the limit; the
 * field keeps what was typed (lib/amount-input.ts: a comma is the decimal point, nothing else is
 * rewritten).
 */
export function SetLimitModal({
  title,
  description,
  balance,
  currentLimit,
  placeholder,
  pending,
  failure,
  onSubmit,
  onClose,
}: {
  title: string;
  description: string;
  balance: ReactNode;
  currentLimit: ReactNode;
  placeholder: string;
  /** The TrustSet is on its way: the dialog stays open and Set limit waits. */
  pending: boolean;
  /** Why the last send failed, in the caller's words (shown under the field). */
  failure: ReadonlyArray<string | undefined>;
  onSubmit: (limit: string) => void;
  onClose: () => void;
}) {
  const errorId = useId();
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<LimitForm>({ resolver, defaultValues: { limit: '' } });

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !pending && onClose()}
      dismissible={!pending}
      title={title}
      description={description}
    >
      <dl className="review-list compact">
        <div>
          <dt>Balance</dt>
          <dd>{balance}</dd>
        </div>
        <div>
          <dt>Current limit</dt>
          <dd>{currentLimit}</dd>
        </div>
      </dl>
      <form className="form" noValidate onSubmit={(e) => void handleSubmit((v) => onSubmit(v.limit))(e)}>
        <TextField
          label="New limit"
          inputMode="decimal"
          autoComplete="off"
          placeholder={placeholder}
          invalid={Boolean(errors.limit)}
          errorId={errorId}
          autoFocus
          {...register('limit', {
            onChange: (e: { target: HTMLInputElement }) => {
              const clean = sanitizeAmount(e.target.value);
              if (clean !== e.target.value) setValue('limit', clean);
            },
          })}
        />
        <FormErrors id={errorId} messages={[errors.limit?.message, ...failure]} />
        <SubmitActions onCancel={onClose} label="Set limit" pending={pending} />
      </form>
    </Modal>
  );
}
