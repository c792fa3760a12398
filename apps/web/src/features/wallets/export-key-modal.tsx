import { useState } from 'react';
import { WALLETS_NOTIFICATION_MS, type WalletSummary } from '@ledgerpad/shared';
import { CopyButton } from '../../components/copy-button';
import { Modal, ModalActions } from '../../components/modal';
import { PassphraseForm } from '../../components/passphrase-form';
import { open as openRecord, vaultStore, type VaultSecret } from '../../lib/signer/vault';

/**
 * Export a browser wallet's key: after its passphrase, the seed (or the private key of a key-pair
 * import) is shown in this dialog only; closing it drops it. Nothing is sent anywhere.
 */
export function ExportKeyModal({ wallet, onClose }: { wallet: WalletSummary; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<VaultSecret | null>(null);

  const close = () => {
    setSecret(null);
    onClose();
  };
  const shown = secret ? (secret.kind === 'seed' ? secret.seed : secret.privateKey) : '';

  return (
    <Modal
      open
      onOpenChange={(o) => !o && !busy && close()}
      dismissible={!busy}
      title={`Export the key of ${wallet.wallet_name ?? 'this wallet'}`}
      description="Anyone with this key controls the wallet. It is shown here only, and never sent anywhere."
    >
      {secret ? (
        <>
          <p className="field-label">{secret.kind === 'seed' ? 'Seed' : 'Private key'}</p>
          <div className="seed-box">
            <code className="seed secret-box" aria-label="Exported key">
              {shown}
            </code>
            <CopyButton
              value={shown}
              label="Copy key"
              showLabel
              copiedMessage="Key copied"
              failedMessage="Failed to copy the key."
              duration={WALLETS_NOTIFICATION_MS}
            />
          </div>
          <ModalActions>
            <button type="button" onClick={close}>
              Done
            </button>
          </ModalActions>
        </>
      ) : (
        <PassphraseForm
          submitLabel="Show key"
          pendingLabel="Decrypting…"
          onBusy={setBusy}
          onCancel={close}
          onSubmit={async (passphrase) => {
            const record = await vaultStore.get(wallet.wallet_address);
            if (!record) return 'This browser does not hold the key of this wallet.';
            setSecret(await openRecord(record, passphrase));
            return undefined;
          }}
        />
      )}
    </Modal>
  );
}
