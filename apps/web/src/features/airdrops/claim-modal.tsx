import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import {
  AIRDROP_MESSAGES,
  claimAirdropSchema,
  type Airdrop,
  type ClaimAirdropResult,
} from '@ledgerpad/shared';
import { userMessage } from '../../lib/api';
import { requestResolver } from '../../lib/form-resolver';
import { CloseActions, Modal, ModalActions } from '../../components/modal';
import { useWalletBalances, walletLabel } from '../../lib/wallet-balances';
import { useClaim } from './api';
import { grouped, perClaim, tokenName } from './rules';

/**
 * The claim modal: the destination wallet (one of the user's own), then the amount the server paid.
 * A refusal shows the server's sentence, anything else 'Claim failed.'.
 */
export function ClaimModal({ airdrop, onClose }: { airdrop: Airdrop; onClose: () => void }) {
  const id = useId();
  const wallets = useWalletBalances();
  const claim = useClaim(airdrop.id);
  // The select's value is the request's own field: the server's schema says 'Select a wallet.'.
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ destinationWalletId: string }>({
    resolver: requestResolver(claimAirdropSchema, (v) => v),
    defaultValues: { destinationWalletId: '' },
  });
  /** The server's refusal (or 'Claim failed.'); cleared when another wallet is chosen. */
  const [failure, setFailure] = useState<string>();
  const [result, setResult] = useState<ClaimAirdropResult>();
  const busy = claim.busy;
  const token = tokenName(airdrop);
  const list = wallets.data ?? [];
  const invalid = errors.destinationWalletId?.message;
  const error = invalid ?? failure;

  const submit = async ({ destinationWalletId }: { destinationWalletId: string }) => {
    if (busy) return;
    setFailure(undefined);
    try {
      // Who signs, if anything is to be signed (a self-custody wallet's trust line): the same
      // fields on a retry, so the retry keeps its Idempotency-Key.
      const w = list.find((x) => x.id === Number(destinationWalletId));
      const res = await claim.run({
        id: Number(destinationWalletId),
        wallet_address: w?.wallet_address ?? '',
        wallet_name: w?.wallet_name ?? null,
        kind: w?.kind,
        wallet_app: w?.wallet_app ?? null,
      });
      if (res) setResult(res);
    } catch (err) {
      setFailure(userMessage(err, AIRDROP_MESSAGES.claimFailed));
    }
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !busy && onClose()}
      dismissible={!busy}
      title={result ? 'Airdrop claimed' : `Claim ${airdrop.project_name}`}
      role={result ? 'alertdialog' : 'dialog'}
    >
      {result ? (
        <>
          <p role="status">
            You received{' '}
            <strong data-testid="claimed-amount">
              {grouped(result.amount)} {token}
            </strong>
            .
          </p>
          <p className="muted small airdrop-hash">Transaction: {result.hash}</p>
          <CloseActions onClose={onClose} label="Close" />
        </>
      ) : (
        <form className="form" noValidate onSubmit={(e) => void handleSubmit(submit)(e)}>
          <p className="muted">
            Each claim pays {perClaim(airdrop)} {token}. One claim per user.
          </p>
          {wallets.isSuccess && list.length === 0 ? (
            <p className="muted">
              You have no wallets yet. <Link to="/wallets">Create one on the Wallets page</Link>.
            </p>
          ) : (
            <div className="field">
              <label className="field-label" htmlFor={`${id}-wallet`}>
                Destination wallet
              </label>
              <select
                id={`${id}-wallet`}
                className="input"
                disabled={busy}
                aria-invalid={invalid ? true : undefined}
                {...register('destinationWalletId', { onChange: () => setFailure(undefined) })}
              >
                <option value="">{wallets.isPending ? 'Loading wallets…' : 'Select a wallet'}</option>
                {list.map((w) => (
                  <option key={w.id} value={String(w.id)}>
                    {walletLabel(w)}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="form-error" role="alert">
            {error && <p>{error}</p>}
          </div>
          <ModalActions>
            <button type="button" className="btn-secondary" onClick={onClose} disabled={busy}>
              Cancel
            </button>
            <button type="submit" disabled={busy}>
              {busy ? 'Claiming…' : 'Claim'}
            </button>
          </ModalActions>
        </form>
      )}
    </Modal>
  );
}
