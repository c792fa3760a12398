import { useState } from 'react';
import { SELF_CUSTODY_MESSAGES } from '@ledgerpad/shared';
import { WrongPassphraseError } from '../lib/signer/vault';
import { TextField } from './form-field';
import { SubmitActions } from './modal';

/**
 * One passphrase field with its error line and Cancel / submit buttons (unlocking a browser wallet,
 * exporting its key). `onSubmit` answers the sentence to show when it refuses the passphrase, or
 * throws: a wrong passphrase (WrongPassphraseError) reads as the one sentence for it, any other error
 * as its own message — the mapping written here once for every passphrase prompt.
 */
export function PassphraseForm({
  submitLabel,
  pendingLabel,
  onSubmit,
  onCancel,
  onBusy,
}: {
  submitLabel: string;
  pendingLabel: string;
  onSubmit: (passphrase: string) => Promise<string | undefined>;
  onCancel: () => void;
  onBusy?: (busy: boolean) => void;
}) {
  const [passphrase, setPassphrase] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const submit = async () => {
    setBusy(true);
    onBusy?.(true);
    setFailure(undefined);
    try {
      const refused = await onSubmit(passphrase);
      if (refused) setFailure(refused);
      else setPassphrase('');
    } catch (err) {
      setFailure(
        err instanceof WrongPassphraseError ? SELF_CUSTODY_MESSAGES.wrongPassphrase : (err as Error).message,
      );
    } finally {
      setBusy(false);
      onBusy?.(false);
    }
  };
  return (
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
      <SubmitActions
        onCancel={() => {
          setPassphrase('');
          onCancel();
        }}
        label={submitLabel}
        pending={busy}
        pendingLabel={pendingLabel}
      />
    </form>
  );
}
