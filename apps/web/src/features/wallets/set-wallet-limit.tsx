import { toast } from 'sonner';
import {
  sameCurrency,
  WALLETS_NOTIFICATION_MS,
  type SetTrustlineLimitResponse,
  type WalletToken,
  formatToken,
} from '@ledgerpad/shared';
import { SetLimitModal } from '../../components/set-limit-modal';
import { apiPost, userMessage } from '../../lib/api';
import { runSigned, type SigningWallet } from '../../lib/signer';
import { useLedgerMutation } from '../../lib/ledger-mutation';
import { MESSAGES } from './messages';
import { useLedgerNetwork, useTrustlines } from './api';
import { tokenLabel } from './tokens';

/**
 * Set limit on one of the wallet's tokens (components/set-limit-modal.tsx is the form). A limit below
 * the balance is refused by the server, which says what is held.
 */
export function SetWalletLimit({
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
  const network = useLedgerNetwork();
  const lines = useTrustlines(walletId);
  const line = lines.data?.find(
    (l) => l.issuer === token.issuer && sameCurrency(l.currencyCode, token.currencyCode),
  );

  // A TrustSet on the ledger: one Idempotency-Key per click.
  const save = useLedgerMutation((limit: string, key) =>
    runSigned<SetTrustlineLimitResponse>(
      wallet,
      () =>
        apiPost(
          '/api/wallets/set-trustline-limit',
          { walletId, issuer: token.issuer, currency: token.currencyCode, limit },
          { idempotencyKey: key() },
        ),
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
    <SetLimitModal
      title={`Set ${tokenLabel(token)} limit`}
      description="The most of this token the wallet will accept. Payments beyond it are refused."
      balance={formatToken(token.value)}
      currentLimit={line ? formatToken(line.limit) : lines.isPending ? '…' : '—'}
      placeholder={line ? line.limit : '0'}
      pending={save.isPending}
      failure={[save.isError ? userMessage(save.error, MESSAGES.setLimitFailed) : undefined]}
      onSubmit={(limit) => save.mutate(limit, { onSuccess: saved })}
      onClose={onClose}
    />
  );
}
