import { useEffect, useState, useSyncExternalStore } from 'react';
import {
  pendingUnlock,
  snapshot,
  subscribe,
  touch,
  unlock,
  unlockAnswered,
  unlockCancelled,
} from '../lib/signer/lock';
import { Modal } from './modal';
import { PassphraseForm } from './passphrase-form';

/**
 * The passphrase prompt of a locked browser wallet, shown when a transaction of it is to be signed
 * (or Unlock is clicked). Mounted once for signed-in users; it also counts their activity, which
 * keeps unlocked wallets unlocked (they lock after the chosen minutes without any).
 */
export function UnlockPrompt() {
  useSyncExternalStore(subscribe, snapshot);
  const asked = pendingUnlock();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const active = () => touch();
    window.addEventListener('pointerdown', active, { passive: true });
    window.addEventListener('keydown', active);
    return () => {
      window.removeEventListener('pointerdown', active);
      window.removeEventListener('keydown', active);
    };
  }, []);

  if (!asked) return null;
  return (
    <Modal
      open
      onOpenChange={(o) => !o && !busy && unlockCancelled()}
      dismissible={!busy}
      title={`Unlock ${asked.name}`}
      description="This browser wallet's key is encrypted in this browser. Enter its passphrase to sign."
      className="unlock-modal"
    >
      <PassphraseForm
        submitLabel="Unlock"
        pendingLabel="Unlocking…"
        onBusy={setBusy}
        onCancel={unlockCancelled}
        onSubmit={async (passphrase) => {
          await unlock(asked.address, passphrase);
          unlockAnswered();
          return undefined;
        }}
      />
    </Modal>
  );
}
