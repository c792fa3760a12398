import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { vaultPassphraseSchema, type WalletSummary } from '@ledgerpad/shared';
import { FormErrors, TextField } from '../../components/form-field';
import { Modal, SubmitActions } from '../../components/modal';
import { userMessage } from '../../lib/api';
import { requestResolver } from '../../lib/form-resolver';
import { SeedModal } from './seed-modal';
import { addBrowserWallet, newKey } from './self-custody';

interface Form {
  name: string;
  passphrase: string;
  confirm: string;
}

/** The passphrase fields both browser-wallet dialogs (create, import) show. */
export function PassphraseFields({
  register,
  errors,
  errorId,
}: {
  register: ReturnType<typeof useForm<Form>>['register'];
  errors: ReturnType<typeof useForm<Form>>['formState']['errors'];
  errorId: string;
}) {
  return (
    <>
      <TextField
        label="Passphrase"
        type="password"
        autoComplete="new-password"
        hint="Encrypts the key in this browser. Ledgerpad never sees it and cannot reset it."
        invalid={Boolean(errors.passphrase)}
        errorId={errorId}
        {...register('passphrase')}
      />
      <TextField
        label="Repeat the passphrase"
        type="password"
        autoComplete="new-password"
        invalid={Boolean(errors.confirm)}
        errorId={errorId}
        {...register('confirm')}
      />
    </>
  );
}

/**
 * Create a browser wallet: the key is generated here, encrypted with the user's passphrase
 * (PBKDF2-SHA256 ≥ 600,000 rounds, AES-GCM) into this browser's storage, and never sent anywhere;
 * then its seed is shown once for a backup.
 */
export function BrowserWalletModal({
  onClose,
  onAdded,
}: {
  onClose: () => void;
  onAdded: (wallet: WalletSummary) => void;
}) {
  const errorId = useId();
  const [stage, setStage] = useState<'form' | 'securing' | 'proving' | 'backup'>('form');
  const [failure, setFailure] = useState<string>();
  const [backup, setBackup] = useState<{ wallet: WalletSummary; seed: string } | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Form>({
    // The schema reads the passphrase and its repeat; the name is the form's own.
    resolver: requestResolver<Form>(vaultPassphraseSchema, (v) => v),
    defaultValues: { name: '', passphrase: '', confirm: '' },
  });
  const busy = stage === 'securing' || stage === 'proving';

  const submit = handleSubmit(async (v) => {
    setFailure(undefined);
    try {
      const material = await newKey();
      const wallet = await addBrowserWallet(material, v.passphrase, v.name.trim() || undefined, setStage);
      setBackup({ wallet, seed: material.secret.kind === 'seed' ? material.secret.seed : '' });
      setStage('backup');
      onAdded(wallet);
    } catch (err) {
      setStage('form');
      setFailure(userMessage(err, 'Failed to create the browser wallet. Please try again.'));
    }
  });

  if (stage === 'backup' && backup)
    return (
      <SeedModal
        wallet={{ ...backup.wallet, wallet_seed: backup.seed }}
        title="Back up your browser wallet"
        description="Only this browser holds the key, encrypted with your passphrase. Write the seed down: it is the only way to restore the wallet in another browser, and Ledgerpad cannot recover it."
        onClose={() => {
          setBackup(null);
          onClose();
        }}
      />
    );

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !busy && onClose()}
      dismissible={!busy}
      title="Create a browser wallet"
      description="A self-custody wallet: its key is made in this browser and kept here, encrypted with your passphrase. The server never receives it and cannot sign for it: you approve each transaction here."
    >
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label="Name (optional)" autoComplete="off" maxLength={50} {...register('name')} />
        <PassphraseFields register={register} errors={errors} errorId={errorId} />
        <FormErrors id={errorId} messages={[errors.passphrase?.message, errors.confirm?.message, failure]} />
        <SubmitActions
          onCancel={onClose}
          label="Create"
          pending={busy}
          pendingLabel={stage === 'securing' ? 'Encrypting the key…' : 'Proving ownership…'}
        />
      </form>
    </Modal>
  );
}
