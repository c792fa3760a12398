import { useState } from 'react';
import { TextField } from './form-field';
import { SubmitActions } from './modal';

/**
 * One passphrase field with its error line and Cancel / submit buttons (unlocking a browser wallet,
 * exporting its key). `onSubmit` answers the sentence to show when the passphrase is refused.
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
