import { useCallback, useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  CLAIM_SUCCESS_AUTO_CLOSE_MS,
  REFERRAL_MESSAGES,
  bpsToPercent,
  formatMoney,
  referralClaimSchema,
  shortAddress,
  type ReferralBalanceView,
  type ReferralClaimResult,
} from '@ledgerpad/shared';
import { CopyButton } from '../../components/copy-button';
import { FormErrors } from '../../components/form-field';
import { LoadFailed } from '../../components/load-failed';
import { CloseActions, Modal, ModalActions } from '../../components/modal';
import { PaymentsTable } from '../../components/payments-table';
import { WalletSelectField } from '../../components/wallet-select-field';
import { userMessage } from '../../lib/api';
import { requestResolver } from '../../lib/form-resolver';
import { useClaimReferral, useReferralClaims, useReferralEarnings, useReferralSummary } from './api';
import './referrals.css';

/** An amount as money in the one format (docs/number-format.md): XRP to the drop, RLUSD at 6 decimals at most. */
const money = (value: string, currency: string) => `${formatMoney(value, currency)} ${currency}`;

/**
 * /referrals (issue 37, docs/referrals.md): the user's referral link with a copy button, who signed
 * up through it, what they earned (a share of those users' trading fees) and its claim to one of
 * their wallets, with the history of claims and earnings.
 */
export function ReferralsPage() {
  const summary = useReferralSummary();
  const [claiming, setClaiming] = useState<ReferralBalanceView | null>(null);
  const close = useCallback(() => setClaiming(null), []);

  return (
    <div className="referrals-page">
      <div className="page-title-row">
        <h1>Referrals</h1>
      </div>
      {summary.isPending ? (
        <section className="panel">
          <p className="muted" aria-busy="true">
            Loading your referral link…
          </p>
        </section>
      ) : summary.isError ? (
        <LoadFailed
          as="section"
          className="panel"
          message={userMessage(summary.error, 'Could not load your referrals.')}
          onRetry={() => void summary.refetch()}
        />
      ) : (
        <>
          <section className="panel" aria-labelledby="ref-link-title">
            <h2 id="ref-link-title">Your referral link</h2>
            <p className="muted">
              Friends who sign up through this link pay nothing extra. You earn{' '}
              <strong>{summary.data.share_percent}%</strong> of the platform fee on their trades for{' '}
              {summary.data.months} months after they sign up.
            </p>
            <div className="ref-link-row">
              <input
                className="input ref-link"
                readOnly
                aria-label="Referral link"
                value={`${window.location.origin}${summary.data.link_path}`}
                onFocus={(e) => e.currentTarget.select()}
              />
              <CopyButton
                value={`${window.location.origin}${summary.data.link_path}`}
                label="Copy link"
                showLabel
                className="btn-secondary ref-copy"
                copiedMessage="Link copied"
                failedMessage="Failed to copy the link."
              />
            </div>
            <dl className="ref-facts">
              <div>
                <dt>Code</dt>
                <dd>{summary.data.code}</dd>
              </div>
              <div>
                <dt>Signed up through you</dt>
                <dd data-testid="ref-referred">{summary.data.referred}</dd>
              </div>
              <div>
                <dt>Still earning</dt>
                <dd>{summary.data.active}</dd>
              </div>
            </dl>
          </section>

          <section className="panel" aria-labelledby="ref-earnings-title">
            <h2 id="ref-earnings-title">Earnings</h2>
            <div className="ref-balances">
              {summary.data.balances.map((b) => (
                <div key={b.currency} className="ref-balance">
                  <dl>
                    <div>
                      <dt>Earned</dt>
                      <dd>{money(b.earned, b.currency)}</dd>
                    </div>
                    <div>
                      <dt>Claimed</dt>
                      <dd>{money(b.claimed, b.currency)}</dd>
                    </div>
                    <div>
                      <dt>Claimable</dt>
                      <dd data-testid={`ref-claimable-${b.currency}`}>{money(b.claimable, b.currency)}</dd>
                    </div>
                  </dl>
                  <button type="button" disabled={!(Number(b.claimable) > 0)} onClick={() => setClaiming(b)}>
                    Claim {b.currency}
                  </button>
                </div>
              ))}
            </div>
          </section>
          <ClaimHistory />
          <EarningHistory />
        </>
      )}
      {claiming && <ClaimReferralModal balance={claiming} onClose={close} />}
    </div>
  );
}

function ClaimHistory() {
  const claims = useReferralClaims();
  return (
    <section className="panel" aria-labelledby="ref-claims-title">
      <h2 id="ref-claims-title">Payouts</h2>
      {claims.isPending ? (
        <p className="muted" aria-busy="true">
          Loading payouts…
        </p>
      ) : claims.isError ? (
        <p className="form-error" role="alert">
          {userMessage(claims.error, 'Could not load the payouts.')}
        </p>
      ) : claims.data.length === 0 ? (
        <p className="empty-state">No payouts yet. Claims appear here with their transactions.</p>
      ) : (
        <PaymentsTable
          recipientLabel="To"
          rows={claims.data.map((c) => ({
            id: c.id,
            at: c.created_at,
            address: c.address,
            amount: money(c.amount, c.currency),
            status: c.status,
            hash: c.hash,
          }))}
        />
      )}
    </section>
  );
}

function EarningHistory() {
  const earnings = useReferralEarnings();
  return (
    <section className="panel" aria-labelledby="ref-accruals-title">
      <h2 id="ref-accruals-title">Recent earnings</h2>
      {earnings.isPending ? (
        <p className="muted" aria-busy="true">
          Loading earnings…
        </p>
      ) : earnings.isError ? (
        <p className="form-error" role="alert">
          {userMessage(earnings.error, 'Could not load the earnings.')}
        </p>
      ) : earnings.data.length === 0 ? (
        <p className="empty-state">Nothing earned yet: share your link.</p>
      ) : (
        <div className="table-scroll">
          <table className="payments-table card-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col" className="num">
                  Fee paid
                </th>
                <th scope="col" className="num">
                  Share
                </th>
                <th scope="col" className="num">
                  You earned
                </th>
              </tr>
            </thead>
            <tbody>
              {earnings.data.slice(0, 50).map((e) => (
                <tr key={e.id}>
                  <td data-label="Time">
                    <time dateTime={e.created_at}>{new Date(e.created_at).toLocaleString()}</time>
                  </td>
                  <td data-label="Fee paid" className="num">
                    {money(e.fee, e.currency)}
                  </td>
                  <td data-label="Share" className="num">
                    {bpsToPercent(e.share_bps)}%
                  </td>
                  <td data-label="You earned" className="num">
                    {money(e.amount, e.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Claims everything claimable in one currency to one of the user's wallets; closes 3 s after success. */
function ClaimReferralModal({ balance, onClose }: { balance: ReferralBalanceView; onClose: () => void }) {
  const errorId = useId();
  const claim = useClaimReferral();
  const [done, setDone] = useState<ReferralClaimResult | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ wallet: string }>({
    resolver: requestResolver<{ wallet: string }>(referralClaimSchema, (v) => ({
      wallet: v.wallet,
      currency: balance.currency,
    })),
    defaultValues: { wallet: '' },
  });
  const busy = claim.isPending;

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(onClose, CLAIM_SUCCESS_AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [done, onClose]);

  const submit = handleSubmit((v) =>
    claim.mutate({ wallet: v.wallet, currency: balance.currency }, { onSuccess: setDone }),
  );

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !busy && onClose()}
      dismissible={!busy}
      title={`Claim referral earnings (${balance.currency})`}
      role={done ? 'alertdialog' : 'dialog'}
    >
      {done ? (
        <div className="confirm-body" role="status">
          <p>
            Claimed <strong>{formatMoney(done.claimed, done.currency)}</strong> {done.currency} to{' '}
            <span className="address" title={done.to}>
              {shortAddress(done.to)}
            </span>
            .
          </p>
          <CloseActions onClose={onClose} />
        </div>
      ) : (
        <form className="form" noValidate onSubmit={(e) => void submit(e)}>
          <p>
            You receive{' '}
            <strong data-testid="ref-claim-amount">{money(balance.claimable, balance.currency)}</strong>
          </p>
          <WalletSelectField
            invalid={Boolean(errors.wallet)}
            errorId={errorId}
            disabled={busy}
            {...register('wallet')}
          />
          <FormErrors
            id={errorId}
            messages={[
              errors.wallet?.message,
              claim.isError ? REFERRAL_MESSAGES.claimFailed : undefined,
              claim.isError ? userMessage(claim.error) : undefined,
            ]}
          />
          <ModalActions>
            <button type="button" className="btn-secondary" onClick={onClose} disabled={busy}>
              Cancel
            </button>
            <button type="submit" disabled={busy}>
              {busy ? 'Claiming...' : 'Claim'}
            </button>
          </ModalActions>
        </form>
      )}
    </Modal>
  );
}
