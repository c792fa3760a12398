import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import {
  CLAIM_CHALLENGE_TTL_MINUTES,
  IDENTITY_MESSAGES,
  LISTING_MESSAGES,
  listingMetadataSchema,
  type ClaimMethod,
  type ListingMetadata,
  type ListingMetadataInput,
  type TokenView,
  tokenPath,
} from '@ledgerpad/shared';
import { CopyButton } from '../../components/copy-button';
import { IdentityBadge } from '../../components/identity-badge';
import { FormErrors } from '../../components/form-field';
import { TokenDetailsFields, tokenDetailsErrors, useLogoUpload } from '../../components/token-details-fields';
import { hasStatus } from '../../lib/api';
import {
  claimListing,
  ListingError,
  updateListing,
  useClaimCode,
  useListedForClaim,
  useListingControl,
} from './api';
import { schemaResolver } from '../../lib/form-resolver';
import { listedTokenKeys } from '../../lib/query-keys';
import { LISTING_LOGO } from './listing-logo';

// /list-token?claim={issuer} (issue 24): the real issuer is never locked out of a listing someone
// else made. It proves control — one of its own Ledgerpad wallets, a claim code sent by the issuer
// in a zero-effect AccountSet (shown exactly, for any wallet such as Xaman), or its xrp-ledger.toml
// — and its name, description, logo and links replace the lister's. A proven controller comes back
// here to update the listing at any time.

/**
 * The form starts from the listing as it stands (issue 39: it started empty and a claim without a
 * new upload wiped the logo); the claimer edits what is not theirs.
 */
const currentDetails = (t: TokenView): ListingMetadataInput => ({
  name: t.name,
  description: t.description,
  twitterLink: t.twitterLink ?? '',
  telegramLink: t.telegramLink ?? '',
  websiteLink: t.websiteLink ?? '',
  logoUrl: t.logoUrl ?? '',
});

export function ClaimListing({ issuer, currency }: { issuer: string; currency?: string }) {
  const listed = useListedForClaim(issuer);
  if (listed.isPending) return <p className="muted">Loading the listing…</p>;
  if (listed.isError) {
    const missing = hasStatus(listed.error, 404);
    return (
      <section className="panel" role="alert">
        <p className="form-error">
          {missing ? 'This issuer has no listed token yet.' : LISTING_MESSAGES.databaseFailed}
        </p>
        {missing && <Link to="/list-token">List it first</Link>}
      </section>
    );
  }
  // One claim per listing (issue 35): the currency named, the only one, or the issuer's choice.
  const wanted = currency?.toUpperCase();
  const token =
    listed.data.length === 1
      ? listed.data[0]
      : listed.data.find((t) => t.currency.toUpperCase() === wanted || t.ticker.toUpperCase() === wanted);
  if (!token) return <ClaimChooser tokens={listed.data} />;
  return <ClaimPanel key={token.id} token={token} />;
}

function ClaimChooser({ tokens }: { tokens: TokenView[] }) {
  return (
    <section className="panel claim-panel" aria-labelledby="claim-choose-title" data-testid="claim-chooser">
      <h2 id="claim-choose-title" className="section-label">
        Which listing do you claim?
      </h2>
      <p className="muted">This issuer has several listed tokens; each listing is claimed on its own.</p>
      <ul className="claim-choices">
        {tokens.map((t) => (
          <li key={t.currency}>
            <Link
              to={`/list-token?${new URLSearchParams({ claim: t.issuer_address, currency: t.currency }).toString()}`}
            >
              <strong>{t.ticker}</strong> <span className="muted">{t.name}</span>
            </Link>{' '}
            <IdentityBadge token={t} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ClaimPanel({ token }: { token: TokenView }) {
  const control = useListingControl(token.id);
  const [done, setDone] = useState<{ token: TokenView; note?: string } | null>(null);
  if (done) {
    const t = done.token;
    return (
      <section className="panel listed" role="status">
        <h2>
          {done.note
            ? 'Listing verified from the issuer’s domain'
            : t.verified
              ? 'Listing claimed'
              : 'Listing updated'}
        </h2>
        {done.note ? (
          <p data-testid="claim-note">{done.note}</p>
        ) : (
          <p>
            <strong>{t.name}</strong> ({t.ticker}) now shows your details. <IdentityBadge token={t} />
          </p>
        )}
        <Link className="button-link listing-link" to={tokenPath(t.issuer_address, t.currency)}>
          View token page
        </Link>
      </section>
    );
  }
  const lost = control.data?.lost_control;
  return (
    <section className="panel claim-panel" aria-labelledby="claim-title">
      <h2 id="claim-title" className="section-label">
        {control.data?.controller ? 'Update your listing' : 'Claim this listing'}
      </h2>
      <p>
        <strong>{token.ticker}</strong> <span className="muted">{token.name}</span>{' '}
        <IdentityBadge token={token} />
      </p>
      <p className="address muted small">{token.issuer_address}</p>
      {lost && (
        <p className="form-error" role="alert" data-testid="lost-control">
          {lost.message}
        </p>
      )}
      {control.isPending ? (
        <p className="muted">Checking…</p>
      ) : control.data?.controller ? (
        <MetadataForm token={token} method={null} onDone={setDone} />
      ) : (
        <ProveControl token={token} ownWallet={control.data?.own_wallet === true} onDone={setDone} />
      )}
    </section>
  );
}

function ProveControl({
  token,
  ownWallet,
  onDone,
}: {
  token: TokenView;
  ownWallet: boolean;
  onDone: (r: { token: TokenView; note?: string }) => void;
}) {
  const [method, setMethod] = useState<ClaimMethod>(ownWallet ? 'wallet' : 'challenge');
  const code = useClaimCode(token.id);
  const tx = code.data ? JSON.stringify(code.data.transaction, null, 2) : '';
  return (
    <>
      <p className="muted">{IDENTITY_MESSAGES.claimIntro}</p>
      <fieldset className="claim-methods">
        <legend className="field-label">How do you prove it?</legend>
        <label className="claim-method">
          <input
            type="radio"
            name="method"
            checked={method === 'wallet'}
            onChange={() => setMethod('wallet')}
          />
          <span>
            <strong>It is one of my Ledgerpad wallets</strong>
            <span className="muted small">
              {ownWallet ? IDENTITY_MESSAGES.ownWallet : 'Import the issuer on the Wallets page first.'}
            </span>
          </span>
        </label>
        <label className="claim-method">
          <input
            type="radio"
            name="method"
            checked={method === 'challenge'}
            onChange={() => setMethod('challenge')}
          />
          <span>
            <strong>Send a claim code from the issuer</strong>
            <span className="muted small">
              Sign this transaction with the issuer in any wallet (Xaman, …): an AccountSet that changes
              nothing. Its memo says, in words the issuer reads before signing, that it makes you the
              controller of this listing. Valid {CLAIM_CHALLENGE_TTL_MINUTES} minutes; reloading this page
              keeps the same code.
            </span>
          </span>
        </label>
        {method === 'challenge' &&
          (code.isPending ? (
            <p className="muted">Getting a claim code…</p>
          ) : code.data && code.data.code ? (
            <div className="claim-code">
              <p className="small">The memo reads:</p>
              <blockquote className="claim-text" data-testid="claim-text">
                {code.data.claim_text}
              </blockquote>
              <p className="small">
                Claim code: <code data-testid="claim-code">{code.data.code}</code>
              </p>
              <pre className="claim-tx" data-testid="claim-transaction">
                {tx}
              </pre>
              <CopyButton
                value={tx}
                label="Copy transaction"
                showLabel
                copiedMessage="Transaction copied"
                failedMessage="Failed to copy."
              />
            </div>
          ) : (
            <p className="form-error">
              {code.data ? IDENTITY_MESSAGES.issuerCannotSign : 'The claim code could not be issued.'}
            </p>
          ))}
        <label className="claim-method">
          <input type="radio" name="method" checked={method === 'toml'} onChange={() => setMethod('toml')} />
          <span>
            <strong>My site’s xrp-ledger.toml lists this token</strong>
            <span className="muted small">
              {code.data?.toml_url
                ? `We read ${code.data.toml_url}: [[ISSUERS]] must list the issuer, [[CURRENCIES]] ${token.ticker} with this issuer. To be made controller, add this line to that [[CURRENCIES]] entry; without it the listing is verified from the file and nobody becomes controller.`
                : IDENTITY_MESSAGES.noDomain}
            </span>
          </span>
        </label>
        {method === 'toml' && code.data?.toml_url && code.data.toml_line && (
          <div className="claim-code">
            <pre className="claim-tx" data-testid="toml-line">
              {code.data.toml_line}
            </pre>
            <CopyButton
              value={code.data.toml_line}
              label="Copy line"
              showLabel
              copiedMessage="Line copied"
              failedMessage="Failed to copy."
            />
          </div>
        )}
      </fieldset>
      <MetadataForm token={token} method={method} onDone={onDone} />
    </>
  );
}

function MetadataForm({
  token,
  method,
  onDone,
}: {
  token: TokenView;
  /** The proof to check; null when the caller already controls the listing. */
  method: ClaimMethod | null;
  onDone: (r: { token: TokenView; note?: string }) => void;
}) {
  const errorId = useId();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const {
    register,
    handleSubmit,
    setValue,
    watch,
    formState: { errors, isSubmitted },
  } = useForm<ListingMetadataInput, unknown, ListingMetadata>({
    resolver: schemaResolver(listingMetadataSchema),
    defaultValues: currentDetails(token),
  });
  const {
    uploading,
    refused: logoRefused,
    logo,
  } = useLogoUpload(LISTING_LOGO, (url) => setValue('logoUrl', url ?? '', { shouldValidate: isSubmitted }));
  const fieldErrors = tokenDetailsErrors(errors);
  const logoUrl = watch('logoUrl');
  const submit = handleSubmit(async (values) => {
    if (logoRefused) return setFailure(LISTING_MESSAGES.logoRefused);
    setBusy(true);
    setFailure(undefined);
    try {
      const body = { ...values, logoUrl: values.logoUrl || undefined };
      const res = method
        ? await claimListing({ ...body, token_id: token.id, method })
        : await updateListing(token.id, body);
      await queryClient.invalidateQueries({ queryKey: listedTokenKeys.all() });
      onDone({ token: res.token, note: res.note });
    } catch (err) {
      setFailure(
        err instanceof ListingError ? err.message : 'The claim could not be checked. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  });
  return (
    <form className="form" onSubmit={(e) => void submit(e)} noValidate>
      <p className="field-hint">
        Your details: they replace the listing’s name, description, logo and links. The form starts from what
        the listing shows now — check every link before you send it: each becomes yours.
      </p>
      {logoUrl && (
        <p className="claim-current-logo muted small" data-testid="current-logo">
          <img src={logoUrl} alt="" width={32} height={32} /> Current logo, kept unless you upload another.
        </p>
      )}
      <TokenDetailsFields
        // The created date is not rendered here (createdDate false), so it is never registered.
        register={(name) => register(name as Exclude<typeof name, 'created_at'>)}
        invalid={(name) => Boolean(errors[name as keyof typeof errors])}
        errorId={errorId}
        disabled={busy}
        description={watch('description') ?? ''}
        createdDate={false}
        logo={logo}
      />
      <FormErrors
        id={errorId}
        messages={[
          fieldErrors.some(Boolean) ? LISTING_MESSAGES.formErrors : undefined,
          ...fieldErrors,
          failure,
        ]}
      />
      <div className="form-actions">
        <button type="submit" disabled={busy || uploading}>
          {busy ? 'Checking…' : method ? 'Claim listing' : 'Update listing'}
        </button>
      </div>
    </form>
  );
}
