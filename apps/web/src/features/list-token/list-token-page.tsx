import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import {
  classicAddressSchema,
  IDENTITY_MESSAGES,
  LISTING_MESSAGES,
  listingFormSchema,
  type IssuedToken,
  type ListingForm,
  type ListingFormInput,
  type TokenView,
} from '@ledgerpad/shared';
import { FormErrors, TextField } from '../../components/form-field';
import { Modal, ModalActions } from '../../components/modal';
import { schemaResolver } from '../../lib/form-resolver';
import { listedTokenKeys } from '../../lib/query-keys';
import { fetchIssuer, ListingError, listToken, type IssuerDetails } from './api';
import { IdentityBadge } from '../../components/identity-badge';
import { TokenDetailsFields, tokenDetailsErrors, useLogoUpload } from '../../components/token-details-fields';
import { ClaimListing } from './claim-listing';
import { LISTING_LOGO } from './listing-logo';
import './list-token.css';

const issuerSchema = classicAddressSchema('Issuer address');

const EMPTY: ListingFormInput = {
  name: '',
  description: '',
  twitterLink: '',
  telegramLink: '',
  websiteLink: '',
  logoUrl: '',
  created_at: '',
};

/** '1234567.5' → '1,234,567.5', on the text (supplies are decimal strings, never floats). */
function groupDigits(value: string): string {
  const [whole = '0', part] = value.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return part ? `${grouped}.${part}` : grouped;
}

interface Failure {
  message: string;
  detail?: string;
}

const failureOf = (err: unknown, fallback: string): Failure =>
  err instanceof ListingError ? { message: err.message, detail: err.detail } : { message: fallback };

function FailureLine({ failure }: { failure?: Failure }) {
  if (!failure) return null;
  return (
    <div role="alert" className="form-error">
      <p>{failure.message}</p>
      {failure.detail && failure.detail !== failure.message && (
        <p className="failure-detail">{failure.detail}</p>
      )}
    </div>
  );
}

/**
 * /list-token (spec 001 §2): an issuer address → its token(s) and supply from the ledger → the
 * listing form → listed. 'Token Already Listed' when the issuer's token is listed (on fetch, or a 409).
 */
export function ListTokenPage() {
  const [params] = useSearchParams();
  const claim = params.get('claim');
  if (claim && issuerSchema.safeParse(claim).success) {
    return (
      <div className="list-token-page">
        <h1>Claim a Listing</h1>
        <ClaimListing issuer={claim} currency={params.get('currency') ?? undefined} />
      </div>
    );
  }
  return <ListForm />;
}

function ListForm() {
  const [issuer, setIssuer] = useState('');
  const [issuerError, setIssuerError] = useState<string>();
  const [fetching, setFetching] = useState(false);
  const [fetchFailure, setFetchFailure] = useState<Failure>();
  const [details, setDetails] = useState<IssuerDetails | null>(null);
  const [currency, setCurrency] = useState<string>();
  const [alreadyListed, setAlreadyListed] = useState<{ issuer: string; ticker: string } | null>(null);
  const [listed, setListed] = useState<TokenView | null>(null);

  const issuerId = useId();

  const fetchDetails = async (event: React.FormEvent) => {
    event.preventDefault();
    setFetchFailure(undefined);
    setDetails(null);
    const parsed = issuerSchema.safeParse(issuer);
    if (!parsed.success) {
      setIssuerError(parsed.error.issues[0]!.message);
      return;
    }
    setIssuerError(undefined);
    setFetching(true);
    try {
      const found = await fetchIssuer(parsed.data);
      const listedCode = found.listed?.currency;
      const open = found.tokens.filter((t) => t.currency !== listedCode);
      if (open.length === 0 && found.listed) {
        setAlreadyListed({ issuer: found.account, ticker: found.listed.ticker });
        return;
      }
      setDetails(found);
      setCurrency(open[0]!.currency);
    } catch (err) {
      setFetchFailure(failureOf(err, LISTING_MESSAGES.fetchFailed));
    } finally {
      setFetching(false);
    }
  };

  const startOver = () => {
    setDetails(null);
    setListed(null);
    setIssuer('');
    setFetchFailure(undefined);
  };

  if (listed) return <ListedView token={listed} onAnother={startOver} />;

  return (
    <div className="list-token-page">
      <h1>List Any Token</h1>
      <p className="muted">
        List a token that already exists on the XRP Ledger: enter its issuer address, check what the ledger
        says about it, and describe it.
      </p>

      <section className="panel" aria-labelledby={`${issuerId}-title`}>
        <h2 id={`${issuerId}-title`} className="section-label">
          Issuer
        </h2>
        <form className="form issuer-form" onSubmit={(e) => void fetchDetails(e)} noValidate>
          <TextField
            label="Issuer address"
            value={issuer}
            onChange={(e) => {
              setIssuer(e.target.value);
              setIssuerError(undefined);
            }}
            placeholder="r…"
            autoComplete="off"
            spellCheck={false}
            invalid={Boolean(issuerError)}
            errorId={`${issuerId}-error`}
            disabled={fetching}
            addon={
              <button type="submit" disabled={fetching}>
                {fetching ? 'Fetching…' : 'Fetch'}
              </button>
            }
          />
          <FormErrors id={`${issuerId}-error`} messages={[issuerError]} />
          <FailureLine failure={fetchFailure} />
        </form>
      </section>

      {details && currency && (
        <ListingFormPanel
          key={`${details.account}:${currency}`}
          details={details}
          currency={currency}
          onCurrency={setCurrency}
          onAlreadyListed={(ticker) => setAlreadyListed({ issuer: details.account, ticker })}
          onListed={setListed}
        />
      )}

      <Modal
        open={alreadyListed !== null}
        onOpenChange={(open) => !open && setAlreadyListed(null)}
        role="alertdialog"
        title={LISTING_MESSAGES.alreadyListed}
        description={
          alreadyListed ? `${alreadyListed.ticker} from this issuer is already listed on Ledgerpad.` : ''
        }
      >
        <p className="muted">{IDENTITY_MESSAGES.alreadyListedHelp}</p>
        <ModalActions>
          <button type="button" className="btn-secondary" onClick={() => setAlreadyListed(null)}>
            Close
          </button>
          {alreadyListed && (
            <Link className="button-link listing-link" to={`/token/${alreadyListed.issuer}`}>
              View token
            </Link>
          )}
          {alreadyListed && (
            <Link
              className="button-link listing-link"
              to={`/list-token?claim=${alreadyListed.issuer}`}
              onClick={() => setAlreadyListed(null)}
            >
              Claim this listing
            </Link>
          )}
        </ModalActions>
      </Modal>
    </div>
  );
}

function ListingFormPanel({
  details,
  currency,
  onCurrency,
  onAlreadyListed,
  onListed,
}: {
  details: IssuerDetails;
  currency: string;
  onCurrency: (code: string) => void;
  onAlreadyListed: (ticker: string) => void;
  onListed: (token: TokenView) => void;
}) {
  const errorId = useId();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>();
  const token = details.tokens.find((t) => t.currency === currency) as IssuedToken;
  const listedCode = details.listed?.currency;

  const {
    register,
    handleSubmit,
    setValue,
    watch,
    formState: { errors, isSubmitted },
  } = useForm<ListingFormInput, unknown, ListingForm>({
    resolver: schemaResolver(listingFormSchema),
    defaultValues: EMPTY,
  });
  const {
    uploading,
    refused: logoRefused,
    logo,
  } = useLogoUpload(LISTING_LOGO, (url) => setValue('logoUrl', url ?? '', { shouldValidate: isSubmitted }));
  const description = watch('description') ?? '';
  const fieldErrors = tokenDetailsErrors(errors);
  const invalid = fieldErrors.some(Boolean);

  const submit = handleSubmit(async (values) => {
    // A refused logo is never dropped silently: the user chooses a valid one or clears the file.
    if (logoRefused) return setFailure({ message: LISTING_MESSAGES.logoRefused });
    setBusy(true);
    setFailure(undefined);
    try {
      const res = await listToken({
        ...values,
        logoUrl: values.logoUrl || undefined,
        created_at: values.created_at || undefined,
        issuer_address: details.account,
        currency: token.currency,
      });
      await queryClient.invalidateQueries({ queryKey: listedTokenKeys.all() });
      onListed(res.token);
    } catch (err) {
      if (err instanceof ListingError && err.alreadyListed) onAlreadyListed(token.ascii);
      else setFailure(failureOf(err, LISTING_MESSAGES.listFailed));
    } finally {
      setBusy(false);
    }
  });

  const disabled = busy;
  return (
    <section className="panel" aria-labelledby={`${errorId}-title`}>
      <h2 id={`${errorId}-title`} className="section-label">
        Token
      </h2>
      {details.tokens.length > 1 && (
        <fieldset className="segmented currency-choice" disabled={disabled}>
          <legend className="field-label">This issuer issues several tokens. Choose one:</legend>
          {details.tokens.map((t) => (
            <label key={t.currency} className="segment">
              <input
                type="radio"
                name="currency"
                value={t.currency}
                checked={t.currency === currency}
                disabled={t.currency === listedCode}
                onChange={() => onCurrency(t.currency)}
              />
              <span>
                {t.ascii}
                {t.currency === listedCode ? ' (listed)' : ''}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <dl className="token-facts">
        <div>
          <dt>Ticker</dt>
          <dd data-testid="listing-ticker">{token.ascii}</dd>
        </div>
        <div>
          <dt>Supply</dt>
          <dd data-testid="listing-supply">{groupDigits(token.value)}</dd>
        </div>
        <div>
          <dt>Blackholed</dt>
          <dd data-testid="listing-blackholed">{details.is_blackholed ? 'Yes' : 'No'}</dd>
        </div>
        <div className="wide">
          <dt>Issuer</dt>
          <dd className="address">{details.account}</dd>
        </div>
        {token.currency !== token.ascii && (
          <div className="wide">
            <dt>Currency code</dt>
            <dd className="hash">{token.currency}</dd>
          </div>
        )}
      </dl>
      <p className="field-hint">
        Ticker, supply and blackhole status are read from the XRP Ledger (blackholed: the issuer&apos;s master
        key is disabled and its regular key is a black-hole address), not typed in.
      </p>

      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <TokenDetailsFields
          register={register}
          invalid={(name) => Boolean(errors[name])}
          errorId={errorId}
          disabled={disabled}
          description={description}
          logo={logo}
        />
        <FormErrors
          id={errorId}
          messages={[invalid ? LISTING_MESSAGES.formErrors : undefined, ...fieldErrors]}
        />
        <FailureLine failure={failure} />
        <div className="form-actions">
          <button type="submit" disabled={busy || uploading}>
            {busy ? 'Listing…' : 'List Token'}
          </button>
        </div>
      </form>
    </section>
  );
}

function ListedView({ token, onAnother }: { token: TokenView; onAnother: () => void }) {
  return (
    <div className="list-token-page">
      <section className="panel listed" role="status" aria-labelledby="listed-title">
        <h1 id="listed-title">Token listed</h1>
        <p>
          <strong>{token.name}</strong> ({token.ticker}) is now listed on Ledgerpad, with a supply of{' '}
          {groupDigits(token.supply)} read from the XRP Ledger. <IdentityBadge token={token} />
        </p>
        {!token.verified && (
          <p className="muted">
            Nobody has proven control of this issuer yet, so the listing shows as Unverified and its links as{' '}
            {IDENTITY_MESSAGES.linksByLister}.{' '}
            <Link
              to={`/list-token?${new URLSearchParams({ claim: token.issuer_address, currency: token.currency }).toString()}`}
            >
              Do you control the issuer? Claim it
            </Link>
          </p>
        )}
        <div className="form-actions">
          <Link className="button-link listing-link" to={`/token/${token.issuer_address}`}>
            View token page
          </Link>
          <Link className="button-link listing-link btn-secondary" to="/">
            All tokens
          </Link>
          <button type="button" className="btn-secondary" onClick={onAnother}>
            List another token
          </button>
        </div>
      </section>
    </div>
  );
}
