import { useId, useState } from 'react';
import { WALLETS_NOTIFICATION_MS, type CreatedWallet } from '@ledgerpad/shared';
import { CopyButton } from '../../components/copy-button';
import { Modal, ModalActions } from '../../components/modal';
import { MESSAGES } from './messages';

/**
 * The new wallet's seed, shown this once (the server never returns it again). It lives only in the
 * page's state while this modal is open; closing is possible only after "I saved it" is ticked, and
 * the page drops the seed when it closes.
 */
export function SeedModal({
  wallet,
  onClose,
  title = 'Save your wallet seed',
  description = "This is the only time the seed is shown. Anyone who has it controls the wallet, and without it the wallet can't be restored elsewhere.",
}: {
  wallet: CreatedWallet;
  onClose: () => void;
  /** A browser wallet's backup says who holds the key instead. */
  title?: string;
  description?: string;
}) {
  const [saved, setSaved] = useState(false);
  const checkId = useId();
  return (
    <Modal
      open
      onOpenChange={(open) => !open && saved && onClose()}
      dismissible={saved}
      role="alertdialog"
      title={title}
      description={description}
      className="seed-modal"
    >
      <p className="seed-wallet">
        <span className="muted">{wallet.wallet_name ?? 'New wallet'}</span>
        <code className="address">{wallet.wallet_address}</code>
      </p>
      <div className="seed-box">
        <code className="seed" aria-label="Wallet seed">
          {wallet.wallet_seed}
        </code>
        <CopyButton
          value={wallet.wallet_seed}
          label="Copy seed"
          showLabel
          copiedMessage="Seed copied"
          failedMessage={MESSAGES.copySeedFailed}
          duration={WALLETS_NOTIFICATION_MS}
        />
      </div>
      <p className="muted small">Write it down or keep it in a password manager. Never share it.</p>
      <label className="checkbox" htmlFor={checkId}>
        <input id={checkId} type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        <span>I saved it</span>
      </label>
      <ModalActions>
        <button type="button" disabled={!saved} onClick={onClose}>
          Done
        </button>
      </ModalActions>
    </Modal>
  );
}
