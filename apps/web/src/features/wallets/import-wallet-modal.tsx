import { useId, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { toast } from 'sonner';
import {
  importWalletSchema,
  mnemonicWords,
  MNEMONIC_WORD_COUNTS,
  WALLETS_NOTIFICATION_MS,
  type ImportWalletRequest,
  type WalletSummary,
  vaultPassphraseSchema,
} from '@ledgerpad/shared';
import { FormErrors, SelectField, TextAreaField, TextField } from '../../components/form-field';
import { Modal, SubmitActions } from '../../components/modal';
import { apiPost, hasStatus, userMessage } from '../../lib/api';
import { allResolvers, requestResolver } from '../../lib/form-resolver';
import { PassphraseFields } from './browser-wallet-modal';
import { MESSAGES } from './messages';
import { addBrowserWallet, keyFromImport } from './self-custody';

type Mode = 'seed' | 'mnemonic' | 'privateKey';

/** Where the key is kept: sealed on the server (custodial) or only in this browser (self-custody). */
type Custody = 'server' | 'browser';

interface ImportForm {
  custody: Custody;
  passphrase: string;
  confirm: string;
  type: Mode;
  seed: string;
  mnemonic: string;
  wordCount: string;
  privateKey: string;
  name: string;
}

const MODES: Array<{ value: Mode; label: string }> = [
  { value: 'seed', label: 'Seed' },
  { value: 'mnemonic', label: 'Mnemonic' },
  { value: 'privateKey', label: 'Private key' },
];

const EMPTY: ImportForm = {
  custody: 'server',
  passphrase: '',
  confirm: '',
  type: 'seed',
  seed: '',
  mnemonic: '',
  wordCount: '12',
  privateKey: '',
  name: '',
};

/** The request of the chosen mode only: secrets typed in another mode are never sent. */
function toRequest(v: ImportForm): ImportWalletRequest {
  const name = v.name.trim() ? { name: v.name } : {};
  if (v.type === 'mnemonic')
    return { type: 'mnemonic', mnemonic: v.mnemonic, wordCount: Number(v.wordCount), ...name };
  if (v.type === 'privateKey') return { type: 'privateKey', privateKey: v.privateKey, ...name };
  return { type: 'seed', seed: v.seed, ...name };
}

// The server's schema checks the form (spec §5 Import wallet): 'Please fill in all fields.',
// 'Please enter exactly N words.'. Its field names are the form's. A browser import checks the
// same fields (nothing of them is sent) and its passphrase.
const requestCheck = requestResolver<ImportForm>(importWalletSchema, toRequest);
const passphraseCheck = requestResolver<ImportForm>(vaultPassphraseSchema, (v) => ({
  passphrase: v.passphrase,
  confirm: v.confirm,
}));
const browserCheck = allResolvers(requestCheck, passphraseCheck);
const resolver: Resolver<ImportForm> = (values, ctx, opts) =>
  (values.custody === 'browser' ? browserCheck : requestCheck)(values, ctx, opts);

const CUSTODY_TEXT: Record<Custody, string> = {
  server:
    'Custodial: the key is stored encrypted on the Ledgerpad server, which signs your transactions for you.',
  browser:
    'Self-custody: the key stays in this browser, encrypted with your passphrase. It is never sent to the server; you sign each transaction here.',
};

/**
 * Import Wallet: by seed, mnemonic (12/14/16/24 words) or private key. 'Wallet Already Exists' (a
 * 400) is answered by its own dialog; secrets are dropped from the form when the modal closes.
 */
export function ImportWalletModal({
  onClose,
  onImported,
  onAlreadyExists,
}: {
  onClose: () => void;
  onImported: (wallet: WalletSummary) => void;
  onAlreadyExists: () => void;
}) {
  const errorId = useId();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [reveal, setReveal] = useState(false);
  const {
    register,
    handleSubmit,
    watch,
    reset,
    clearErrors,
    formState: { errors },
  } = useForm<ImportForm>({ resolver, defaultValues: EMPTY });
  const mode = watch('type');
  const custody = watch('custody');
  const [stage, setStage] = useState<'securing' | 'proving'>();
  const wordCount = Number(watch('wordCount'));
  const typedWords = mnemonicWords(watch('mnemonic') ?? '').length;

  const close = () => {
    if (busy) return;
    reset(EMPTY);
    onClose();
  };

  const submit = handleSubmit(async (values) => {
    setBusy(true);
    setFailure(undefined);
    try {
      // In the browser: nothing of the key leaves it (only the ownership proof's signature does).
      const wallet =
        values.custody === 'browser'
          ? await addBrowserWallet(
              await keyFromImport(
                values.type === 'mnemonic'
                  ? { type: 'mnemonic', mnemonic: values.mnemonic }
                  : values.type === 'privateKey'
                    ? { type: 'privateKey', privateKey: values.privateKey }
                    : { type: 'seed', seed: values.seed },
              ),
              values.passphrase,
              values.name.trim() || undefined,
              setStage,
            )
          : await apiPost<WalletSummary>('/api/wallets/import', toRequest(values));
      reset(EMPTY);
      toast.success(`${wallet.wallet_name ?? 'Wallet'} imported`, { duration: WALLETS_NOTIFICATION_MS });
      onImported(wallet);
    } catch (err) {
      if (hasStatus(err, 400) && userMessage(err) === MESSAGES.alreadyExists) {
        reset(EMPTY);
        onAlreadyExists();
        return;
      }
      // A 400 says what is wrong with what was typed (an invalid mnemonic, key or seed).
      if (err instanceof Error && err.name === 'InvalidKeyError') setFailure(err.message);
      else setFailure(hasStatus(err, 400) ? userMessage(err, MESSAGES.importFailed) : MESSAGES.importFailed);
    } finally {
      setBusy(false);
      setStage(undefined);
    }
  });

  const secretType = reveal ? 'text' : 'password';
  const revealButton = (
    <button type="button" className="btn-secondary" onClick={() => setReveal((r) => !r)}>
      {reveal ? 'Hide' : 'Show'}
    </button>
  );
  // The seed and the private key: hidden unless revealed, never autocompleted or spell-checked.
  const secretField = (name: 'seed' | 'privateKey', label: string, placeholder: string) => (
    <TextField
      label={label}
      type={secretType}
      autoComplete="off"
      spellCheck={false}
      placeholder={placeholder}
      invalid={Boolean(errors[name])}
      errorId={errorId}
      addon={revealButton}
      {...register(name)}
    />
  );

  return (
    <Modal
      open
      onOpenChange={(open) => !open && close()}
      dismissible={!busy}
      title="Import Wallet"
      description="Add a wallet you already have, and choose who keeps its key."
    >
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <fieldset className="segmented" disabled={busy}>
          <legend className="field-label">Keep the key</legend>
          <label className="segment">
            <input type="radio" value="server" {...register('custody', { onChange: () => clearErrors() })} />
            <span>On the server</span>
          </label>
          <label className="segment">
            <input type="radio" value="browser" {...register('custody', { onChange: () => clearErrors() })} />
            <span>Only in this browser</span>
          </label>
        </fieldset>
        <p className="custody-note" data-testid="custody-note">
          {CUSTODY_TEXT[custody]}
        </p>
        <fieldset className="segmented" disabled={busy}>
          <legend className="field-label">Import with</legend>
          {MODES.map((m) => (
            <label key={m.value} className="segment">
              <input
                type="radio"
                value={m.value}
                {...register('type', {
                  onChange: () => {
                    clearErrors();
                    setFailure(undefined);
                  },
                })}
              />
              <span>{m.label}</span>
            </label>
          ))}
        </fieldset>

        {mode === 'seed' && secretField('seed', 'Seed', 's…')}
        {mode === 'mnemonic' && (
          <>
            <SelectField
              label="Number of words"
              {...register('wordCount', { onChange: () => clearErrors() })}
            >
              {MNEMONIC_WORD_COUNTS.map((n) => (
                <option key={n} value={n}>
                  {n} words
                </option>
              ))}
            </SelectField>
            <TextAreaField
              label="Mnemonic"
              rows={3}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              placeholder="Words separated by spaces"
              hint={`${typedWords} of ${wordCount} words`}
              invalid={Boolean(errors.mnemonic)}
              errorId={errorId}
              {...register('mnemonic')}
            />
          </>
        )}
        {mode === 'privateKey' && secretField('privateKey', 'Private key', 'Hex, 64 or 66 characters')}
        <TextField
          label="Name (optional)"
          autoComplete="off"
          maxLength={50}
          invalid={Boolean(errors.name)}
          errorId={errorId}
          {...register('name')}
        />
        {custody === 'browser' && (
          <PassphraseFields register={register as never} errors={errors} errorId={errorId} />
        )}
        <FormErrors
          id={errorId}
          messages={[
            errors.seed?.message,
            errors.mnemonic?.message,
            errors.privateKey?.message,
            errors.wordCount?.message,
            errors.name?.message,
            errors.passphrase?.message,
            errors.confirm?.message,
            failure,
          ]}
        />
        <SubmitActions
          onCancel={close}
          label="Import"
          pending={busy}
          pendingLabel={
            stage === 'securing'
              ? 'Encrypting the key…'
              : stage === 'proving'
                ? 'Proving ownership…'
                : 'Importing…'
          }
        />
      </form>
    </Modal>
  );
}
