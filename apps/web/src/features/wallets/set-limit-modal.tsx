import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import {
  sameCurrency,
  setTrustlineLimitSchema,
  WALLETS_NOTIFICATION_MS,
  type SetTrustlineLimitResponse,
  type WalletToken,
  formatToken,
} from '@ledgerpad/shared';
import { FormErrors, TextField } from '../../components/form-field';
import { Modal, SubmitActions } from '../../components/modal';
import { apiPost, userMessage } from '../../lib/api';
import { runSigned, type SigningWallet } from '../../lib/signer';
import { useLedgerMutation } from '../../lib/ledger-mutation';
import { requestResolver } from '../../lib/form-resolver';
import { MESSAGES } from './messages';
import { sanitizeAmount } from '../../lib/amount-input';
import { useLedgerNetwork, useTrustlines } from './api';
import { tokenLabel } from './tokens';

interface LimitForm {
  limit: string;
}

/**
 * Set limit: how much of a token the wallet accepts (a TrustSet). Empty is the spec's 'Please fill in
 * all fields.'; a limit below the balance is refused by the server, which says what is held.
 */
export function SetLimitModal({
  walletId,
  wallet,
  token,
  onClose,
  onDone,
}: {
  walletId: number;
  /** Who signs the TrustSet: the server (custodial) or the wallet itself (lib/signer). */
  wallet: SigningWallet;
  token: WalletToken;
  onClose: () => void;
  onDone: () => void;
}) {
  const errorId = useId();
  const network = useLedgerNetwork();
  const lines = useTrustlines(walletId);
  const line = lines.data?.find(
    (l) => l.issuer === token.issuer && sameCurrency(l.currencyCode, token.currencyCode),
  );
  const request = (v: LimitForm) => ({
    walletId,
    issuer: token.issuer,
    currency: token.currencyCode,
    limit: v.limit,
  });
  const resolver = requestResolver<LimitForm>(setTrustlineLimitSchema, request);
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<LimitForm>({ resolver, defaultValues: { limit: '' } });

  // A TrustSet on the ledger: one Idempotency-Key per click.
  const save = useLedgerMutation((v: LimitForm, key) =>
    runSigned<SetTrustlineLimitResponse>(
      wallet,
      () => apiPost('/api/wallets/set-trustline-limit', request(v), { idempotencyKey: key() }),
      key('signed'),
      network,
    ),
  );
  const saved = (res: SetTrustlineLimitResponse) => {
    toast.success(`${tokenLabel(token)} limit set to ${formatToken(res.limit)}`, {
      duration: WALLETS_NOTIFICATION_MS,
    });
    onDone();
    onClose();
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !save.isPending && onClose()}
      dismissible={!save.isPending}
      title={`Set ${tokenLabel(token)} limit`}
      description="The most of this token the wallet will accept. Payments beyond it are refused."
    >
      <dl className="review-list compact">
        <div>
          <dt>Balance</dt>
          <dd>{formatToken(token.value)}</dd>
        </div>
        <div>
          <dt>Current limit</dt>
          <dd>{line ? formatToken(line.limit) : lines.isPending ? '…' : '—'}</dd>
        </div>
      </dl>
      <form
        className="form"
        onSubmit={(e) => void handleSubmit((v) => save.mutate(v, { onSuccess: saved }))(e)}
        noValidate
      >
        <TextField
          label="New limit"
          inputMode="decimal"
          autoComplete="off"
          placeholder={line ? line.limit : '0'}
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
        <FormErrors
          id={errorId}
          messages={[
            errors.limit?.message,
            save.isError ? userMessage(save.error, MESSAGES.setLimitFailed) : undefined,
          ]}
        />
        <SubmitActions onCancel={onClose} label="Set limit" pending={save.isPending} />
      </form>
    </Modal>
  );
}
