import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import {
  currencyToTicker,
  DASHBOARD_MESSAGES,
  dashboardSetLimitSchema,
  type DashboardTrustLine,
  type TokenView,
} from '@ledgerpad/shared';
import { FormErrors, TextField } from '../../components/form-field';
import { Modal, SubmitActions } from '../../components/modal';
import { userMessage } from '../../lib/api';
import { useWalletKinds } from '../../lib/wallet-kinds';
import { dashboardCalls, groupDigits, shortAddress, useDashboardWrite } from './api';

// The limit field of the shared request schema: the same rules the server applies.
const limitForm = dashboardSetLimitSchema.pick({ limitAmount: true });

interface LimitForm {
  limitAmount: string;
}
// The schema also takes a JSON number; the field only ever holds text.
const resolver = zodResolver(limitForm) as unknown as Resolver<LimitForm>;

/** A new limit for a line held by one of the user's own wallets (that wallet signs the TrustSet). */
export function SetLimitModal({
  token,
  line,
  onClose,
}: {
  token: TokenView;
  line: DashboardTrustLine;
  onClose: () => void;
}) {
  const errorId = useId();
  const holder = useWalletKinds().get(line.account_address);
  const ticker = currencyToTicker(token.currency);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LimitForm>({ resolver, defaultValues: { limitAmount: '' } });
  const save = useDashboardWrite(
    token.id,
    (v: LimitForm, key) =>
      dashboardCalls.setLimit(
        {
          issuerAddress: token.issuer_address,
          holderAddress: line.account_address,
          currency: token.currency,
          limitAmount: v.limitAmount,
        },
        key,
        {
          wallet_address: line.account_address,
          kind: holder?.kind,
          wallet_app: holder?.app,
          wallet_name: holder?.name,
        },
      ),
    {
      fallback: DASHBOARD_MESSAGES.setLimitFailed,
      done: (v) => `Limit set to ${groupDigits(v.limitAmount)} ${ticker}.`,
      toastErrors: false,
    },
  );

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !save.isPending && onClose()}
      dismissible={!save.isPending}
      title={`Set ${ticker} limit`}
      description={`The most ${ticker} the wallet ${shortAddress(line.account_address)} will accept.`}
    >
      <dl className="review-list compact">
        <div>
          <dt>Balance</dt>
          <dd>{groupDigits(line.balance)}</dd>
        </div>
        <div>
          <dt>Current limit</dt>
          <dd>{groupDigits(line.limit_amount)}</dd>
        </div>
      </dl>
      <form
        className="form"
        noValidate
        onSubmit={(e) => void handleSubmit((v) => save.mutate(v, { onSuccess: onClose }))(e)}
      >
        <TextField
          label="New limit"
          inputMode="decimal"
          autoComplete="off"
          placeholder={line.limit_amount}
          invalid={Boolean(errors.limitAmount)}
          errorId={errorId}
          autoFocus
          {...register('limitAmount')}
        />
        <FormErrors
          id={errorId}
          messages={[
            errors.limitAmount?.message,
            save.isError ? DASHBOARD_MESSAGES.setLimitFailed : undefined,
            save.isError ? userMessage(save.error) : undefined,
          ]}
        />
        <SubmitActions onCancel={onClose} label="Set limit" pending={save.isPending} />
      </form>
    </Modal>
  );
}
