import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import { toast } from 'sonner';
import {
  ADMIN_MESSAGES,
  EDGE_MESSAGES,
  LISTING_MESSAGES,
  listingFormSchema,
  listTokenRequestSchema,
  type ListingForm,
  type ListingFormInput,
  type ListTokenResponse,
  type TokenView,
} from '@ledgerpad/shared';
import { FormErrors, TextField } from '../../components/form-field';
import { IdentityBadge } from '../../components/identity-badge';
import { TokenDetailsFields, tokenDetailsErrors, useLogoUpload } from '../../components/token-details-fields';
import { apiPost, userMessage } from '../../lib/api';
import { requestResolver, schemaResolver } from '../../lib/form-resolver';
import { useListedTokens } from './api';
import { adminKeys } from './keys';
import { listedTokenKeys } from '../../lib/query-keys';
import { LoadFailed } from '../../components/load-failed';

/** Spec 001 §3 "Admin token (add/list)": what an admin types; supply and blackhole come from the ledger. */
interface TokenForm {
  issuer_address: string;
  /** The ticker or the ledger's currency code; empty = the issuer's only currency. */
  code: string;
  name: string;
  description: string;
  logoUrl: string;
  twitterLink: string;
  telegramLink: string;
  websiteLink: string;
  created_at: string;
  is_market_listed: boolean;
  is_active: boolean;
  is_market_ready: boolean;
  is_new: boolean;
}

const EMPTY: TokenForm = {
  issuer_address: '',
  code: '',
  name: '',
  description: '',
  logoUrl: '',
  twitterLink: '',
  telegramLink: '',
  websiteLink: '',
  created_at: '',
  is_market_listed: true,
  is_active: true,
  is_market_ready: true,
  is_new: false,
};

const FLAGS = [
  { name: 'is_market_listed', label: 'Listed on the market (shown on the token list)' },
  { name: 'is_active', label: 'Active' },
  { name: 'is_market_ready', label: 'Market ready (trading open)' },
  { name: 'is_new', label: 'Marked as new' },
] as const;

const HEX_CODE = /^[0-9A-Fa-f]{40}$/;

/** The form as POST /api/admin/tokens/add takes it (the listing's shared schema). */
function toRequest(v: TokenForm) {
  const code = v.code.trim();
  return {
    issuer_address: v.issuer_address.trim(),
    // A 3-character or 40-hex code is the ledger's own; anything else is a ticker to convert.
    ...(code === '' ? {} : code.length === 3 || HEX_CODE.test(code) ? { currency: code } : { ticker: code }),
    name: v.name,
    description: v.description,
    logoUrl: v.logoUrl || undefined,
    twitterLink: v.twitterLink,
    telegramLink: v.telegramLink,
    websiteLink: v.websiteLink,
    created_at: v.created_at || undefined,
    is_market_listed: v.is_market_listed,
    is_active: v.is_active,
    is_market_ready: v.is_market_ready,
    is_new: v.is_new,
  };
}

const resolver = requestResolver<TokenForm>(listTokenRequestSchema, toRequest, (_values, errors) => {
  // The route names its field; the form says it the way its label does.
  const e = errors as Record<string, FieldError | undefined>;
  if (e.issuer_address)
    e.issuer_address = { type: 'address', message: EDGE_MESSAGES.address('Issuer address') };
});

/** Tokens: add (list) a token with the admin-only flags, and the tokens listed now. */
export function TokensTab() {
  // A new form (and logo picker) after each token added.
  const [formKey, setFormKey] = useState(0);
  return (
    <div className="admin-stack">
      <AddTokenForm key={formKey} onAdded={() => setFormKey((k) => k + 1)} />
      <ListedTokens />
    </div>
  );
}

/** A token form's field messages (led by the listing's 'check the form' line) and its request's failure. */
function TokenFormProblems(props: {
  errorId: string;
  messages: Array<string | undefined>;
  failure?: string;
}) {
  const { errorId, messages, failure } = props;
  return (
    <>
      <FormErrors
        id={errorId}
        messages={[messages.some(Boolean) ? LISTING_MESSAGES.formErrors : undefined, ...messages]}
      />
      {failure && (
        <p role="alert" className="form-error">
          {failure}
        </p>
      )}
    </>
  );
}

function AddTokenForm({ onAdded }: { onAdded: () => void }) {
  const errorId = useId();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const {
    register,
    handleSubmit,
    setValue,
    watch,
    formState: { errors, isSubmitted },
  } = useForm<TokenForm>({ resolver, defaultValues: EMPTY });
  const { uploading, logo } = useLogoUpload(
    { purpose: 'admin', hint: 'Optional. JPEG, PNG or WebP, at most 1 MB, square-ish.' },
    (url) => setValue('logoUrl', url ?? '', { shouldValidate: isSubmitted }),
  );
  const all = errors as Record<string, FieldError | undefined>;
  // The schema's field names: the code field answers for `currency` and `ticker`.
  const messages = [
    'issuer_address',
    'currency',
    'ticker',
    'name',
    'description',
    'logoUrl',
    'twitterLink',
    'telegramLink',
    'websiteLink',
    'created_at',
  ].map((k) => all[k]?.message);
  const description = watch('description') ?? '';

  const submit = handleSubmit(async (values) => {
    setBusy(true);
    setFailure('');
    try {
      const { token } = await apiPost<ListTokenResponse>('/api/admin/tokens/add', toRequest(values));
      toast.success(`${token.name} (${token.ticker}) added`);
      void queryClient.invalidateQueries({ queryKey: adminKeys.tokens() });
      void queryClient.invalidateQueries({ queryKey: listedTokenKeys.all() });
      onAdded();
    } catch (err) {
      setFailure(userMessage(err, ADMIN_MESSAGES.addTokenFailed, { lead: true }));
    } finally {
      setBusy(false);
    }
  });

  return (
    <section className="panel" aria-labelledby="admin-add-token-heading">
      <h2 id="admin-add-token-heading">Add a token</h2>
      <p className="muted admin-note">
        A token that exists on the XRP Ledger. Supply and blackhole status are read from the ledger.
      </p>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="admin-settings-grid">
          <TextField
            label="Issuer address"
            placeholder="r…"
            autoComplete="off"
            spellCheck={false}
            invalid={Boolean(all.issuer_address)}
            errorId={errorId}
            disabled={busy}
            {...register('issuer_address')}
          />
          <TextField
            label="Ticker or currency code"
            hint="Leave empty when the issuer issues one token."
            autoComplete="off"
            spellCheck={false}
            invalid={Boolean(all.currency || all.ticker)}
            errorId={errorId}
            disabled={busy}
            {...register('code')}
          />
        </div>
        <TokenDetailsFields
          register={register}
          invalid={(name) => Boolean(all[name])}
          errorId={errorId}
          disabled={busy}
          description={description}
          logo={logo}
        />
        <fieldset className="admin-flags" disabled={busy}>
          <legend className="field-label">Flags</legend>
          {FLAGS.map((f) => (
            <label key={f.name} className="checkbox">
              <input type="checkbox" {...register(f.name)} /> {f.label}
            </label>
          ))}
        </fieldset>
        <TokenFormProblems errorId={errorId} messages={messages} failure={failure} />
        <div className="admin-actions">
          <button type="submit" disabled={busy || uploading}>
            {busy ? 'Adding…' : 'Add token'}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The listed tokens' two flag buttons: each flips one flag (its label, request body and toast). */
const TOGGLES = {
  verify: (t: TokenView) => ({
    label: t.verified ? 'Unverify' : 'Verify',
    body: { verified: !t.verified },
    done: `${t.ticker} ${t.verified ? 'unverified' : 'verified'}.`,
  }),
  hide: (t: TokenView) => ({
    label: t.is_active ? 'Hide' : 'Unhide',
    body: { hidden: t.is_active },
    done: `${t.ticker} ${t.is_active ? 'hidden' : 'shown again'}.`,
  }),
};

function ListedTokens() {
  const tokens = useListedTokens();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<TokenView | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const toggleButton = (t: TokenView, path: keyof typeof TOGGLES) => {
    const { label, body, done } = TOGGLES[path](t);
    return (
      <button
        type="button"
        className="btn-secondary"
        disabled={busy === t.id}
        onClick={() => void act(t, path, body, done)}
      >
        {label}
      </button>
    );
  };
  const act = async (t: TokenView, path: keyof typeof TOGGLES, body: object, done: string) => {
    setBusy(t.id);
    try {
      await apiPost<ListTokenResponse>(`/api/admin/tokens/${t.id}/${path}`, body);
      toast.success(done);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all() });
      await queryClient.invalidateQueries({ queryKey: listedTokenKeys.all() });
    } catch (err) {
      toast.error(userMessage(err, ADMIN_MESSAGES.saveFailed, { lead: true }));
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className="panel" aria-labelledby="admin-listed-heading">
      <h2 id="admin-listed-heading">
        Listed tokens {tokens.data && <span className="muted">({tokens.data.length})</span>}
      </h2>
      {tokens.isPending ? (
        <p className="muted" aria-busy="true">
          Loading tokens…
        </p>
      ) : tokens.isError ? (
        <LoadFailed message="Failed to load the tokens." onRetry={() => void tokens.refetch()} />
      ) : tokens.data.length === 0 ? (
        <p className="empty-state">No token is listed yet.</p>
      ) : (
        <div className="table-scroll admin-table-wrap">
          <table className="admin-table" aria-label="Listed tokens">
            <thead>
              <tr>
                <th scope="col">Ticker</th>
                <th scope="col">Name</th>
                <th scope="col">Identity</th>
                <th scope="col">Issuer</th>
                <th scope="col" className="num">
                  Supply
                </th>
                <th scope="col">Pair</th>
                <th scope="col">Source</th>
                <th scope="col">Flags</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((t) => (
                <tr key={t.id} data-testid="admin-token-row">
                  <td>{t.ticker}</td>
                  <td>{t.name}</td>
                  <td>
                    <IdentityBadge token={t} />
                    {t.verified_by && <span className="muted small"> by {t.verified_by}</span>}
                  </td>
                  <td className="address">{t.issuer_address}</td>
                  <td className="num">{t.supply}</td>
                  <td>{t.liquidity_pair}</td>
                  <td>{t.launch_type === 'listing' ? 'Listed' : 'Deployed'}</td>
                  <td>
                    {[
                      t.is_new && 'new',
                      t.is_blackholed && 'blackholed',
                      !t.is_active && 'hidden',
                      !t.is_market_listed && 'unlisted',
                    ]
                      .filter(Boolean)
                      .join(', ') || '—'}
                  </td>
                  <td>{new Date(t.created_at).toLocaleDateString()}</td>
                  <td>
                    <div className="admin-actions">
                      {toggleButton(t, 'verify')}
                      {toggleButton(t, 'hide')}
                      <button type="button" className="btn-secondary" onClick={() => setEditing(t)}>
                        Edit
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && <EditToken key={editing.id} token={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}

/** An admin rewrites any listing (audited); the created date is theirs to set. */
function EditToken({ token, onClose }: { token: TokenView; onClose: () => void }) {
  const errorId = useId();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const { register, handleSubmit, setValue, watch, formState } = useForm<
    ListingFormInput,
    unknown,
    ListingForm
  >({
    resolver: schemaResolver(listingFormSchema),
    defaultValues: {
      name: token.name,
      description: token.description,
      logoUrl: token.logoUrl ?? '',
      twitterLink: token.twitterLink ?? '',
      telegramLink: token.telegramLink ?? '',
      websiteLink: token.websiteLink ?? '',
      created_at: token.created_at.slice(0, 10),
    },
  });
  const { uploading, logo } = useLogoUpload(
    { purpose: 'admin', hint: 'Leave empty to keep the current logo. JPEG, PNG or WebP, up to 1 MB.' },
    (url) => setValue('logoUrl', url ?? token.logoUrl ?? ''),
  );
  const errors = formState.errors;
  const submit = handleSubmit(async (v) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await apiPost<ListTokenResponse>(`/api/admin/tokens/${token.id}/update`, {
        ...v,
        logoUrl: v.logoUrl || undefined,
        created_at: v.created_at || undefined,
      });
      toast.success(`${token.ticker} saved.`);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all() });
      await queryClient.invalidateQueries({ queryKey: listedTokenKeys.all() });
      onClose();
    } catch (err) {
      setFailure(userMessage(err, ADMIN_MESSAGES.saveFailed, { lead: true }));
    } finally {
      setBusy(false);
    }
  });
  const messages = tokenDetailsErrors(errors);
  return (
    <form
      className="form admin-edit-token"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={`Edit ${token.ticker}`}
    >
      <h3>
        Edit {token.ticker} <span className="muted small">{token.issuer_address}</span>
      </h3>
      <TokenDetailsFields
        register={register}
        invalid={(name) => Boolean(errors[name])}
        errorId={errorId}
        disabled={busy}
        description={watch('description') ?? ''}
        logo={logo}
      />
      <TokenFormProblems errorId={errorId} messages={messages} failure={failure} />
      <div className="admin-actions">
        <button type="submit" disabled={busy || uploading}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="btn-secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
