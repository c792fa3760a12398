import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  REWARD_MESSAGES,
  REWARD_PERCENT_MAX,
  REWARD_PERCENT_MIN,
  REWARD_PERCENT_STEP,
  claimAmount,
  claimRewardsSchema,
  unclaimedReward,
  type ClaimRewardsResult,
  type TokenView,
  CLAIM_SUCCESS_AUTO_CLOSE_MS,
} from '@ledgerpad/shared';
import { FormErrors, SelectField } from '../../components/form-field';
import { Modal, ModalActions } from '../../components/modal';
import { requestResolver } from '../../lib/form-resolver';
import { walletLabel } from '../../lib/wallet-balances';
import { userMessage } from '../../lib/api';
import { groupDigits, shortAddress } from './api';
import { useClaimRewards, useClaimWallets, useRewardTotals } from './rewards';

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
  const wallets = useClaimWallets(true);
  const claim = useClaimRewards();
  const [done, setDone] = useState<ClaimRewardsResult | null>(null);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<ClaimForm>({
    resolver: requestResolver<ClaimForm>(claimRewardsSchema, (v) => ({
      wallet: v.wallet,
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

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(onClose, CLAIM_SUCCESS_AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [done, onClose]);

  const submit = handleSubmit((v) =>
    claim.mutate(
      { wallet: v.wallet, token: token.currency, issuer: token.issuer_address, percent: Number(v.percent) },
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
          <p>
            Claimed <strong>{groupDigits(done.claimed)}</strong> {done.currency} to{' '}
            <span className="address" title={done.to}>
              {shortAddress(done.to)}
            </span>
            .
          </p>
          <ModalActions>
            <button type="button" onClick={onClose}>
              Done
            </button>
          </ModalActions>
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
          <SelectField
            label="Wallet"
            invalid={Boolean(errors.wallet)}
            errorId={errorId}
            disabled={busy}
            {...register('wallet')}
          >
            <option value="">{wallets.isPending ? 'Loading wallets…' : 'Select a wallet'}</option>
            {wallets.data?.map((w) => (
              <option key={w.id} value={w.wallet_address}>
                {walletLabel(w)}
              </option>
            ))}
          </SelectField>
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
            You receive{' '}
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
            <button type="submit" disabled={nothing || busy}>
              {busy ? 'Claiming...' : 'Claim'}
            </button>
          </ModalActions>
        </form>
      )}
    </Modal>
  );
}
