import { useEffect, useState, useSyncExternalStore } from 'react';
import { SELF_CUSTODY_MESSAGES } from '@ledgerpad/shared';
import {
  pendingUnlock,
  snapshot,
  subscribe,
  touch,
  unlock,
  unlockAnswered,
  unlockCancelled,
} from '../lib/signer/lock';
import { WrongPassphraseError } from '../lib/signer/vault';
import { TextField } from './form-field';
import { Modal, SubmitActions } from './modal';

/**
 * The passphrase prompt of a locked browser wallet, shown when a transaction of it is to be signed
 * (or Unlock is clicked). Mounted once for signed-in users; it also counts their activity, which
 * keeps unlocked wallets unlocked (they lock after the chosen minutes without any).
 */
export function UnlockPrompt() {
  useSyncExternalStore(subscribe, snapshot);
  const asked = pendingUnlock();
  const [passphrase, setPassphrase] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

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

  const submit = async () => {
    setBusy(true);
    setFailure(undefined);
    try {
      await unlock(asked.address, passphrase);
      setPassphrase('');
      unlockAnswered();
    } catch (err) {
      setFailure(
        err instanceof WrongPassphraseError ? SELF_CUSTODY_MESSAGES.wrongPassphrase : (err as Error).message,
      );
    } finally {
      setBusy(false);
    }
  };
  const cancel = () => {
    setPassphrase('');
    setFailure(undefined);
    unlockCancelled();
  };

  return (
    <Modal
      open
      onOpenChange={(o) => !o && !busy && cancel()}
      dismissible={!busy}
      title={`Unlock ${asked.name}`}
      description="This browser wallet's key is encrypted in this browser. Enter its passphrase to sign."
      className="unlock-modal"
    >
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <TextField
          label="Passphrase"
          type="password"
          autoComplete="current-password"
          autoFocus
          value={passphrase}
          onChange={(e) => setPassphrase(e.target.value)}
          invalid={Boolean(failure)}
        />
        {failure && (
          <p role="alert" className="form-error">
            {failure}
          </p>
        )}
        <SubmitActions onCancel={cancel} label="Unlock" pending={busy} pendingLabel="Unlocking…" />
      </form>
    </Modal>
  );
}
