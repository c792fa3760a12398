import { useId, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import {
  BPS_TOTAL,
  REWARD_SPLIT_MAX,
  REWARD_SPLIT_MESSAGES,
  bpsToPercent,
  percentToBps,
  rewardSplitUpdateSchema,
  type RewardSplitRecipient,
  type TokenView,
} from '@ledgerpad/shared';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormErrors } from '../../components/form-field';
import { userMessage } from '../../lib/api';
import { requestResolver } from '../../lib/form-resolver';
import { walletLabel } from '../../lib/wallet-balances';
import { shortAddress, useClaimWallets, useRewardSplit, useSaveRewardSplit } from './api';
import { LoadFailed } from '../../components/load-failed';

// The creator's reward split (issue 37, docs/rewards.md "Splits"): up to 5 addresses with their
// shares, typed as percents (2 decimals) and sent as basis points; the form is checked with the
// route's own schema. Every saved change is public in the token's split history, shown under it.

interface SplitForm {
  /** `bps` holds the percent as typed; the request carries it as basis points. */
  recipients: Array<{ address: string; bps: string }>;
}

const toRequest = (v: SplitForm) => ({
  recipients: v.recipients.map((r) => ({
    address: r.address.trim(),
    // An unreadable percent is sent as NaN, which the schema answers with the share rule's message.
    bps: percentToBps(r.bps) ?? Number.NaN,
  })),
});

const toRows = (recipients: RewardSplitRecipient[]): SplitForm['recipients'] =>
  recipients.map((r) => ({ address: r.address, bps: bpsToPercent(r.bps) }));

/** The sum of the typed percents in basis points (unreadable rows count as 0). */
const totalBps = (rows: SplitForm['recipients']) => rows.reduce((t, r) => t + (percentToBps(r.bps) ?? 0), 0);

export function RewardSplitPanel({ token }: { token: TokenView }) {
  const split = useRewardSplit(token.id);
  return (
    <section className="panel" aria-labelledby="split-title">
      <div className="dashboard-panel-head">
        <h2 id="split-title">Reward split</h2>
      </div>
      <p className="muted small">
        Share this token’s creator rewards with up to {REWARD_SPLIT_MAX} addresses. Each claim pays every
        recipient its share on the XRP Ledger; the first address also receives what rounding leaves (at most a
        few drops). Changes are public in the token’s history below.
      </p>
      {split.isPending ? (
        <p className="muted" aria-busy="true">
          Loading the split…
        </p>
      ) : split.isError ? (
        <LoadFailed
          className="error-inline"
          message="Could not load the split."
          error={split.error}
          onRetry={() => void split.refetch()}
        />
      ) : (
        <SplitEditor
          key={JSON.stringify(split.data.recipients)}
          token={token}
          saved={split.data.recipients}
        />
      )}
      {split.data && split.data.history.length > 0 && (
        <details className="split-history">
          <summary>History ({split.data.history.length})</summary>
          <ol>
            {split.data.history.map((h) => (
              <li key={h.at}>
                <time dateTime={h.at}>{new Date(h.at).toLocaleString()}</time>:{' '}
                {h.after.length === 0
                  ? 'split removed'
                  : h.after.map((r) => `${shortAddress(r.address)} ${bpsToPercent(r.bps)}%`).join(', ')}
              </li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}

function SplitEditor({ token, saved }: { token: TokenView; saved: RewardSplitRecipient[] }) {
  const errorId = useId();
  const listId = useId();
  const wallets = useClaimWallets(true);
  const save = useSaveRewardSplit(token.id);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const {
    register,
    control,
    handleSubmit,
    watch,
    formState: { errors, isDirty },
  } = useForm<SplitForm>({
    resolver: requestResolver<SplitForm>(rewardSplitUpdateSchema, toRequest),
    defaultValues: { recipients: saved.length > 0 ? toRows(saved) : [{ address: '', bps: '100' }] },
  });
  const rows = useFieldArray({ control, name: 'recipients' });
  const total = totalBps(watch('recipients'));
  const busy = save.isPending;

  const submit = handleSubmit((v) =>
    save.mutate(toRequest(v), {
      onSuccess: () => toast.success(REWARD_SPLIT_MESSAGES.saved),
    }),
  );
  const remove = () =>
    save.mutate(
      { recipients: [] },
      {
        onSuccess: () => {
          setConfirmRemove(false);
          toast.success(REWARD_SPLIT_MESSAGES.removed);
        },
      },
    );

  const rowError = (i: number) => errors.recipients?.[i];
  const messages = [
    errors.recipients?.message,
    errors.recipients?.root?.message,
    ...rows.fields.flatMap((_f, i) => [rowError(i)?.address?.message, rowError(i)?.bps?.message]),
    save.isError ? userMessage(save.error, 'Could not save the split.') : undefined,
  ];

  return (
    <form className="form split-form" noValidate onSubmit={(e) => void submit(e)}>
      <datalist id={listId}>
        {wallets.data?.map((w) => (
          <option key={w.id} value={w.wallet_address}>
            {walletLabel(w)}
          </option>
        ))}
      </datalist>
      <ol className="split-rows" aria-label="Recipients">
        {rows.fields.map((field, i) => (
          <li key={field.id} className="split-row">
            <label className="field">
              <span className="field-label">Address {i + 1}</span>
              <input
                className="input address-input"
                list={listId}
                placeholder="r… (one of your wallets or any account)"
                autoComplete="off"
                spellCheck={false}
                disabled={busy}
                aria-invalid={Boolean(rowError(i)?.address) || undefined}
                aria-describedby={rowError(i)?.address ? errorId : undefined}
                {...register(`recipients.${i}.address`)}
              />
            </label>
            <label className="field split-share">
              <span className="field-label">Share %</span>
              <input
                className="input"
                inputMode="decimal"
                disabled={busy}
                aria-invalid={Boolean(rowError(i)?.bps) || undefined}
                aria-describedby={rowError(i)?.bps ? errorId : undefined}
                {...register(`recipients.${i}.bps`)}
              />
            </label>
            <button
              type="button"
              className="btn-secondary split-remove"
              aria-label={`Remove recipient ${i + 1}`}
              disabled={busy || rows.fields.length === 1}
              onClick={() => rows.remove(i)}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      <div className="split-footer">
        <button
          type="button"
          className="btn-secondary"
          disabled={busy || rows.fields.length >= REWARD_SPLIT_MAX}
          onClick={() => rows.append({ address: '', bps: '' })}
        >
          Add recipient
        </button>
        <p className={total === BPS_TOTAL ? 'split-total ok' : 'split-total'} aria-live="polite">
          Total {bpsToPercent(total)}%{total === BPS_TOTAL ? '' : ' (must be 100%)'}
        </p>
      </div>
      <FormErrors id={errorId} messages={messages} />
      <div className="summary-actions split-actions">
        {saved.length > 0 && (
          <button
            type="button"
            className="btn-secondary"
            disabled={busy}
            onClick={() => setConfirmRemove(true)}
          >
            Remove split
          </button>
        )}
        <button type="submit" disabled={busy || !isDirty}>
          {busy ? 'Saving…' : 'Save split'}
        </button>
      </div>
      {saved.length > 0 && (
        <p className="muted small">
          Now: {saved.map((r) => `${shortAddress(r.address)} ${bpsToPercent(r.bps)}%`).join(' · ')}
        </p>
      )}
      <ConfirmDialog
        open={confirmRemove}
        onOpenChange={setConfirmRemove}
        title="Remove the reward split?"
        confirmLabel="Remove split"
        busyLabel="Removing…"
        busy={busy}
        error={
          confirmRemove && save.isError ? userMessage(save.error, 'Could not save the split.') : undefined
        }
        onConfirm={remove}
      >
        <p>Claims will pay one wallet of yours again. The change is public in the token’s split history.</p>
      </ConfirmDialog>
    </form>
  );
}
