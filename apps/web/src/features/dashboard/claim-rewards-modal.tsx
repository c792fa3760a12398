import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  REWARD_MESSAGES,
  REWARD_PERCENT_MAX,
  REWARD_PERCENT_MIN,
  REWARD_PERCENT_STEP,
  bpsToPercent,
  claimAmount,
  claimRewardsSchema,
  splitAmounts,
  unclaimedReward,
  type ClaimRewardsResult,
  type TokenView,
  CLAIM_SUCCESS_AUTO_CLOSE_MS,
} from '@ledgerpad/shared';
import { FormErrors } from '../../components/form-field';
import { WalletSelectField } from '../../components/wallet-select-field';
import { CloseActions, Modal, ModalActions } from '../../components/modal';
import { requestResolver } from '../../lib/form-resolver';
import { userMessage } from '../../lib/api';
import { groupDigits, shortAddress, useClaimRewards, useRewardSplit, useRewardTotals } from './api';

/** How long the success view stays before the modal closes itself (spec 001 §9). */

interface ClaimForm {
  wallet: string;
  percent: number;
}

/**
 * Claim rewards (spec 001 §6): total earned, already claimed and unclaimed for the token; the wallet
 * to pay; a percent slider 10–100 step 10 and the amount it pays (6 decimals, rounded down, as the
 * server computes it). The success view closes itself after 3 s.
 */
export function ClaimRewardsModal({ token, onClose }: { token: TokenView; onClose: () => void }) {
  const errorId = useId();
  const totals = useRewardTotals(token);
  const split = useRewardSplit(token.id);
  // With a split, the claim pays its recipients (no wallet to choose); without one, a wallet of yours.
  const recipients = split.data?.recipients ?? [];
  const splitting = recipients.length > 0;
  const claim = useClaimRewards();
  const [done, setDone] = useState<ClaimRewardsResult | null>(null);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<ClaimForm>({
    resolver: requestResolver<ClaimForm>(claimRewardsSchema, (v) => ({
      wallet: splitting ? undefined : v.wallet,
      token: token.currency,
      issuer: token.issuer_address,
      percent: Number(v.percent),
    })),
    defaultValues: { wallet: '', percent: REWARD_PERCENT_MAX },
  });
  const percent = Number(watch('percent'));
  const unclaimed = unclaimedReward(totals.totalReward, totals.totalClaimed);
  const amount = claimAmount(totals.totalReward, totals.totalClaimed, percent);
  const nothing = !(Number(unclaimed) > 0);
  const busy = claim.isPending;
  const parts = splitting ? splitAmounts(amount, recipients) : [];

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(onClose, CLAIM_SUCCESS_AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [done, onClose]);

  const submit = handleSubmit((v) =>
    claim.mutate(
      {
        ...(splitting ? {} : { wallet: v.wallet }),
        token: token.currency,
        issuer: token.issuer_address,
        percent: Number(v.percent),
      },
      { onSuccess: setDone },
    ),
  );

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !busy && onClose()}
      dismissible={!busy}
      title={`Claim ${token.ticker} rewards`}
      role={done ? 'alertdialog' : 'dialog'}
    >
      {done ? (
        <div className="confirm-body" role="status">
          {done.payouts ? (
            <>
              <p>
                Claimed <strong>{groupDigits(done.claimed)}</strong> {done.currency}, paid to:
              </p>
              <ul className="claim-payouts">
                {done.payouts.map((p) => (
                  <li key={p.address}>
                    <span className="address" title={p.address}>
                      {shortAddress(p.address)}
                    </span>{' '}
                    {groupDigits(p.amount)} {done.currency}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p>
              Claimed <strong>{groupDigits(done.claimed)}</strong> {done.currency} to{' '}
              <span className="address" title={done.to}>
                {shortAddress(done.to)}
              </span>
              .
            </p>
          )}
          <CloseActions onClose={onClose} />
        </div>
      ) : (
        <form className="form" noValidate onSubmit={(e) => void submit(e)}>
          <dl className="review-list compact">
            <div>
              <dt>Total earned</dt>
              <dd data-testid="reward-total">
                {groupDigits(totals.totalReward)} {totals.currency}
              </dd>
            </div>
            <div>
              <dt>Already claimed</dt>
              <dd data-testid="reward-claimed">
                {groupDigits(totals.totalClaimed)} {totals.currency}
              </dd>
            </div>
            <div>
              <dt>Unclaimed</dt>
              <dd data-testid="reward-unclaimed">
                {groupDigits(unclaimed)} {totals.currency}
              </dd>
            </div>
          </dl>
          {split.isPending ? (
            <p className="muted" aria-busy="true">
              Loading the reward split…
            </p>
          ) : splitting ? (
            <div className="field">
              <p className="field-label">Paid to the reward split</p>
              <ul className="claim-payouts" data-testid="split-parts">
                {recipients.map((r, i) => (
                  <li key={r.address}>
                    <span className="address" title={r.address}>
                      {shortAddress(r.address)}
                    </span>{' '}
                    {bpsToPercent(r.bps)}% · {parts[i]} {totals.currency}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <WalletSelectField
              invalid={Boolean(errors.wallet)}
              errorId={errorId}
              disabled={busy}
              {...register('wallet')}
            />
          )}
          <div className="field">
            <label className="field-label" htmlFor={`${errorId}-percent`}>
              Percent to claim: {percent}%
            </label>
            <input
              id={`${errorId}-percent`}
              type="range"
              min={REWARD_PERCENT_MIN}
              max={REWARD_PERCENT_MAX}
              step={REWARD_PERCENT_STEP}
              disabled={busy}
              aria-valuetext={`${percent}%`}
              aria-invalid={Boolean(errors.percent) || undefined}
              {...register('percent', { valueAsNumber: true })}
            />
          </div>
          <p>
            {splitting ? 'The claim pays' : 'You receive'}{' '}
            <strong data-testid="claim-amount">
              {amount} {totals.currency}
            </strong>
          </p>
          <FormErrors
            id={errorId}
            messages={[
              errors.wallet?.message,
              errors.percent?.message,
              claim.isError ? REWARD_MESSAGES.claimFailed : undefined,
              claim.isError ? userMessage(claim.error) : undefined,
            ]}
          />
          <ModalActions>
            <button type="button" className="btn-secondary" onClick={onClose} disabled={busy}>
              Cancel
            </button>
            <button type="submit" disabled={nothing || busy || split.isPending}>
              {busy ? 'Claiming...' : 'Claim'}
            </button>
          </ModalActions>
        </form>
      )}
    </Modal>
  );
}
