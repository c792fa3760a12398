import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import {
  createdWalletSchema,
  WALLETS_NOTIFICATION_MS,
  type CreatedWallet,
  type WalletBalance,
  type WalletToken,
  formatXrp,
} from '@ledgerpad/shared';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CloseActions, Modal } from '../../components/modal';
import { apiDelete, apiPost, userMessage } from '../../lib/api';
import { useLedgerMutation } from '../../lib/ledger-mutation';
import { runSigned } from '../../lib/signer';
import { BrowserWalletModal } from './browser-wallet-modal';
import { ConnectAppModal } from './connect-app-modal';
import { ExportKeyModal } from './export-key-modal';
import { ImportWalletModal } from './import-wallet-modal';
import { LockSetting } from './lock-setting';
import { MESSAGES } from './messages';
import { sumXrp } from './money';
import {
  useEmbeddedLedger,
  useLedgerNetwork,
  useRefreshWallets,
  useWalletBalances,
  useWalletList,
} from './api';
import { RenameWalletModal } from './rename-wallet-modal';
import { SeedModal } from './seed-modal';
import { SetWalletLimit } from './set-wallet-limit';
import { tokenLabel } from './tokens';
import { TransferModal } from './transfer-modal';
import { useFaucet } from './use-faucet';
import { WalletCard } from './wallet-card';
import { XrplStatus } from './xrpl-status';
import './wallets.css';

/** Toasts `message` once per failed refetch of a query that already has data. */
function useRefreshFailureToast(
  query: { isError: boolean; data: unknown; errorUpdatedAt: number },
  message: string,
) {
  const shown = useRef(0);
  const { isError, data, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError && data !== undefined && errorUpdatedAt !== shown.current) {
      shown.current = errorUpdatedAt;
      toast.error(message, { id: message, duration: WALLETS_NOTIFICATION_MS });
    }
  }, [isError, data, errorUpdatedAt, message]);
}

type Open =
  | { kind: 'import' }
  | { kind: 'browser-create' }
  | { kind: 'connect-app' }
  | { kind: 'export'; walletId: number }
  | { kind: 'exists' }
  | { kind: 'transfer'; walletId: number }
  | { kind: 'rename'; walletId: number }
  | { kind: 'remove'; walletId: number }
  | { kind: 'set-limit'; walletId: number; token: WalletToken }
  | { kind: 'remove-trustline'; walletId: number; token: WalletToken };

/**
 * /wallets (spec §2): total balance, Create Wallet, Import Wallet, a card per wallet, and the
 * transfer, import, remove, set-limit and remove-trustline modals.
 */
export function WalletsPage() {
  const list = useWalletList();
  const balances = useWalletBalances(list.isSuccess && list.data.length > 0);
  const refresh = useRefreshWallets();
  const embedded = useEmbeddedLedger();
  const network = useLedgerNetwork();
  const faucet = useFaucet(() => void refresh(), network);
  const [open, setOpen] = useState<Open | null>(null);
  const close = () => setOpen(null);

  // The new wallet's seed: only here, only until its modal closes (never in a query cache).
  const [created, setCreated] = useState<CreatedWallet | null>(null);
  const [creating, setCreating] = useState(false);
  const create = async () => {
    setCreating(true);
    try {
      const wallet = createdWalletSchema.parse(await apiPost('/api/wallets', {}));
      setCreated(wallet);
      void refresh();
    } catch (err) {
      toast.error(userMessage(err, MESSAGES.createFailed), { duration: WALLETS_NOTIFICATION_MS });
    } finally {
      setCreating(false);
    }
  };

  // A refresh that fails after data was shown says so in a toast; the page keeps the last values.
  useRefreshFailureToast(list, MESSAGES.fetchWalletsFailed);
  useRefreshFailureToast(balances, MESSAGES.fetchBalancesFailed);

  const wallets = list.data ?? [];
  const byId = new Map<number, WalletBalance>((balances.data ?? []).map((b) => [b.id, b]));
  const balanceOf = (id: number): WalletBalance | null | undefined =>
    byId.get(id) ?? (balances.isError || (balances.isSuccess && !balances.isFetching) ? null : undefined);
  const walletOf = (id: number) => wallets.find((w) => w.id === id);
  const balanceFor = (id: number) => byId.get(id);

  const removeWallet = useMutation({
    mutationFn: (id: number) => apiDelete<{ success: boolean }>(`/api/wallets/${id}`),
    onSuccess: () => {
      toast.success('Wallet removed', { duration: WALLETS_NOTIFICATION_MS });
      close();
    },
    onSettled: () => void refresh(),
  });
  // Removing a trust line signs a ledger transaction: one Idempotency-Key per click.
  // A self-custody wallet signs the TrustSet itself (lib/signer).
  const removeTrustline = useLedgerMutation(
    (v: { walletId: number; token: WalletToken }, key) =>
      runSigned(
        walletOf(v.walletId) ?? { wallet_address: '' },
        () =>
          apiPost(
            '/api/wallets/remove-trustline',
            { walletId: v.walletId, issuer: v.token.issuer, currency: v.token.currencyCode },
            { idempotencyKey: key() },
          ),
        key('signed'),
        network,
      ),
    { onSettled: () => void refresh() },
  );

  const openDialog = (next: Open) => {
    removeWallet.reset();
    removeTrustline.reset();
    setOpen(next);
  };

  // The sum of the listed wallets' balances, exact (drops as bigint), once every one is known.
  const known = wallets.every((w) => byId.has(w.id));
  const total = list.data && known ? sumXrp(wallets.map((w) => byId.get(w.id)!.balance)) : null;
  const totalLoading = list.isPending || (!known && (balances.isPending || balances.isFetching));

  return (
    <div className="wallets-page">
      <div className="page-title-row">
        <h1>Wallets</h1>
        <XrplStatus />
      </div>

      <section className="panel wallets-summary" aria-labelledby="total-label">
        <div>
          <p id="total-label" className="section-label">
            Total balance
          </p>
          {totalLoading ? (
            <div className="skeleton-line skeleton-total" aria-label="Loading total balance" />
          ) : (
            <p className="total-balance" data-testid="total-balance">
              {total !== null ? formatXrp(total) : '—'} <span className="unit">XRP</span>
            </p>
          )}
          <p className="muted small">
            {wallets.length === 1 ? '1 wallet' : `${wallets.length} wallets`}
            {balances.isError && !balances.data && (
              <>
                {' · '}
                <span className="error-inline">{MESSAGES.fetchBalancesFailed}</span>{' '}
                <button type="button" className="link-button" onClick={() => void balances.refetch()}>
                  Retry
                </button>
              </>
            )}
          </p>
        </div>
        <div className="summary-actions">
          <button type="button" onClick={() => void create()} disabled={creating}>
            {creating ? 'Creating…' : 'Create Wallet'}
          </button>
          <button type="button" className="btn-secondary" onClick={() => openDialog({ kind: 'import' })}>
            Import Wallet
          </button>
          <button
            type="button"
            className="btn-secondary"
            onClick={() => openDialog({ kind: 'browser-create' })}
          >
            Create browser wallet
          </button>
          <button type="button" className="btn-secondary" onClick={() => openDialog({ kind: 'connect-app' })}>
            Connect wallet app
          </button>
        </div>
      </section>

      <section className="panel custody-panel" aria-label="Who holds your keys">
        <p className="custody-note">
          <strong>Custodial</strong> wallets (Create Wallet, or Import with the key on the server): the key is
          stored encrypted on the Ledgerpad server, which signs for you. <strong>Browser key</strong> and{' '}
          <strong>wallet app</strong> wallets: the key never reaches the server, which cannot sign for them;
          you approve each transaction in this browser or in the app.
        </p>
        <LockSetting />
      </section>

      {list.isPending ? (
        <div className="wallet-grid" aria-busy="true" aria-label="Loading wallets">
          {[0, 1].map((i) => (
            <div key={i} className="wallet-card skeleton">
              <div className="skeleton-line skeleton-title" />
              <div className="skeleton-line" />
              <div className="skeleton-line skeleton-amount" />
              <div className="skeleton-line skeleton-short" />
            </div>
          ))}
        </div>
      ) : !list.data ? (
        <div className="panel empty-state" role="alert">
          <p>{MESSAGES.fetchWalletsFailed}</p>
          <button type="button" onClick={() => void list.refetch()}>
            Retry
          </button>
        </div>
      ) : wallets.length === 0 ? (
        <div className="panel empty-state">
          <p className="empty-title">{MESSAGES.empty}</p>
          <p className="muted">
            A new wallet gets its own address and seed. On the test ledger you can fund it with test XRP right
            away.
          </p>
        </div>
      ) : (
        <div className="wallet-grid">
          {wallets.map((w) => (
            <WalletCard
              key={w.id}
              wallet={w}
              balance={balanceOf(w.id)}
              faucet={faucet}
              rlusdFaucet={embedded}
              onSend={() => openDialog({ kind: 'transfer', walletId: w.id })}
              onRename={() => openDialog({ kind: 'rename', walletId: w.id })}
              onRemove={() => openDialog({ kind: 'remove', walletId: w.id })}
              onSetLimit={(token) => openDialog({ kind: 'set-limit', walletId: w.id, token })}
              onRemoveTrustline={(token) => openDialog({ kind: 'remove-trustline', walletId: w.id, token })}
              onExport={() => openDialog({ kind: 'export', walletId: w.id })}
            />
          ))}
        </div>
      )}

      {created && <SeedModal wallet={created} onClose={() => setCreated(null)} />}

      {open?.kind === 'import' && (
        <ImportWalletModal
          onClose={close}
          onImported={() => {
            close();
            void refresh();
          }}
          onAlreadyExists={() => setOpen({ kind: 'exists' })}
        />
      )}

      {open?.kind === 'browser-create' && (
        <BrowserWalletModal onClose={close} onAdded={() => void refresh()} />
      )}

      {open?.kind === 'connect-app' && <ConnectAppModal onClose={close} onAdded={() => void refresh()} />}

      {open?.kind === 'export' && walletOf(open.walletId) && (
        <ExportKeyModal wallet={walletOf(open.walletId)!} onClose={close} />
      )}

      {open?.kind === 'exists' && (
        <Modal
          open
          onOpenChange={(o) => !o && close()}
          role="alertdialog"
          title={MESSAGES.alreadyExists}
          description="This wallet is already in your list."
        >
          <CloseActions onClose={close} label="OK" />
        </Modal>
      )}

      {open?.kind === 'transfer' && balanceFor(open.walletId) && (
        <TransferModal
          wallet={balanceFor(open.walletId)!}
          ownWallets={wallets}
          onClose={close}
          onSettled={() => void refresh()}
        />
      )}

      {open?.kind === 'rename' && walletOf(open.walletId) && (
        <RenameWalletModal
          wallet={walletOf(open.walletId)!}
          onClose={close}
          onRenamed={() => void refresh()}
        />
      )}

      {open?.kind === 'remove' && (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && close()}
          title={`Remove ${walletOf(open.walletId)?.wallet_name ?? 'wallet'}?`}
          confirmLabel="Remove wallet"
          busyLabel="Removing…"
          busy={removeWallet.isPending}
          error={removeWallet.isError ? userMessage(removeWallet.error, MESSAGES.removeFailed) : undefined}
          danger
          onConfirm={() => removeWallet.mutate(open.walletId)}
        >
          <p>
            It leaves your wallet lists. Its funds stay on the ledger, and importing its seed again brings it
            back.
          </p>
        </ConfirmDialog>
      )}

      {open?.kind === 'set-limit' && walletOf(open.walletId) && (
        <SetWalletLimit
          walletId={open.walletId}
          wallet={walletOf(open.walletId)!}
          token={open.token}
          onClose={close}
          onDone={() => void refresh()}
        />
      )}

      {open?.kind === 'remove-trustline' && (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && close()}
          title={`Remove the ${tokenLabel(open.token)} trust line?`}
          confirmLabel="Remove trust line"
          busyLabel="Removing…"
          busy={removeTrustline.isPending}
          error={
            removeTrustline.isError
              ? userMessage(removeTrustline.error, MESSAGES.removeTrustlineFailed)
              : undefined
          }
          danger
          onConfirm={() =>
            removeTrustline.mutate(
              { walletId: open.walletId, token: open.token },
              {
                onSuccess: () => {
                  toast.success(`${tokenLabel(open.token)} trust line removed`, {
                    duration: WALLETS_NOTIFICATION_MS,
                  });
                  close();
                },
              },
            )
          }
        >
          <p>
            The wallet stops accepting {tokenLabel(open.token)} and its reserve is released. Only an empty
            trust line can be removed.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
