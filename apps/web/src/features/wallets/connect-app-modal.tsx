import { useState } from 'react';
import { WALLET_APP_NAMES, type WalletApp, type WalletSummary } from '@ledgerpad/shared';
import { Modal, ModalActions } from '../../components/modal';
import { userMessage } from '../../lib/api';
import { READY_APPS, UNCONFIGURED_APPS } from '../../lib/signer/external-apps';
import { useLedgerNetwork } from './api';
import { connectWalletApp } from './self-custody';

/**
 * Connect a wallet app (xrpl-connect): the app connects, signs a one-time ownership challenge, and
 * the wallet joins the list. Its key stays in the app; the server cannot sign for it.
 */
export function ConnectAppModal({
  onClose,
  onAdded,
}: {
  onClose: () => void;
  onAdded: (wallet: WalletSummary) => void;
}) {
  const network = useLedgerNetwork();
  const [busy, setBusy] = useState<WalletApp | null>(null);
  const [failure, setFailure] = useState<string>();

  const connect = async (app: WalletApp) => {
    setBusy(app);
    setFailure(undefined);
    try {
      onAdded(await connectWalletApp(app, network));
      onClose();
    } catch (err) {
      setFailure(
        err instanceof Error && err.name === 'WalletAppError'
          ? err.message
          : userMessage(err, 'Could not add the wallet app. Please try again.'),
      );
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      open
      onOpenChange={(o) => !o && !busy && onClose()}
      dismissible={!busy}
      title="Connect a wallet app"
      description="Self-custody: the key stays in your wallet app. You approve each transaction there; the server cannot sign for this wallet."
    >
      <ul className="choice-list">
        {READY_APPS.map((app) => (
          <li key={app}>
            <button
              type="button"
              className="btn-secondary"
              disabled={busy !== null}
              onClick={() => void connect(app)}
            >
              {busy === app ? `Waiting for ${WALLET_APP_NAMES[app]}…` : WALLET_APP_NAMES[app]}
            </button>
          </li>
        ))}
        {UNCONFIGURED_APPS.map((app) => (
          <li key={app}>
            <button
              type="button"
              className="btn-secondary"
              disabled
              title="Needs a service key this server does not have yet"
            >
              {WALLET_APP_NAMES[app]} (not set up on this server)
            </button>
          </li>
        ))}
      </ul>
      <p className="muted small">
        The app is asked to sign an ownership check: a transaction that can never be submitted and moves
        nothing.
      </p>
      {failure && (
        <p role="alert" className="form-error">
          {failure}
        </p>
      )}
      <ModalActions>
        <button type="button" className="btn-secondary" disabled={busy !== null} onClick={onClose}>
          Cancel
        </button>
      </ModalActions>
    </Modal>
  );
}
