import { useId, useState, type FormEvent } from 'react';
import {
  BURN_MESSAGES,
  burnAmountForPercent,
  isValidBurnAmount,
  type BurnResult,
  type BurnToken,
  type BurnWallet,
  Decimal,
  formatToken,
  formatXrp,
  insufficientBalanceLabel,
  shortAddress,
} from '@ledgerpad/shared';
import { Modal, ModalActions } from '../../components/modal';
import { WalletListState } from '../../components/wallet-list-state';
import { WalletKindBadge } from '../../components/wallet-kind-badge';
import { useWalletKinds } from '../../lib/wallet-kinds';
import { userMessage } from '../../lib/api';
import { useSession } from '../../lib/session';
import { useBurn, useBurnWallets } from './api';
import './burner.css';
import { AmountField } from '../../components/amount-field';

const tokenKey = (t: Pick<BurnToken, 'tokenCode' | 'issuer'>) => `${t.tokenCode}|${t.issuer}`;
/** A token amount with thousands separators, digits as given (the one number format). */
const grouped = (value: string) => formatToken(value);

/** The slider position an amount typed by hand corresponds to (0–100, whole percent, rounded down). */
function percentOf(amount: string, balance: string): number {
  if (!isValidBurnAmount(amount) || !/^\d+(\.\d+)?$/.test(balance) || new Decimal(balance).lte(0)) return 0;
  const p = new Decimal(amount).div(balance).mul(100).floor();
  return Decimal.min(100, p).toNumber();
}

/** What the user reads when a burn is refused: the server's reason under the spec's message. */
function failureOf(error: unknown): string[] {
  const reason = userMessage(error);
  if (reason === BURN_MESSAGES.invalidInput) return [reason];
  return reason && reason !== BURN_MESSAGES.burnFailed
    ? [BURN_MESSAGES.burnFailed, reason]
    : [BURN_MESSAGES.burnFailed];
}

/**
 * /burner (spec 001 §2 Burner): the user's wallets (address, XRP), the tokens the chosen one holds,
 * and a burn form (amount and a 0–100 % slider). A burn pays the tokens back to their issuer, which
 * takes them out of circulation; the success modal shows what was burned, and the wallet list is
 * reloaded with the selection kept where it still exists (docs/burner.md).
 */
export function BurnerPage() {
  const session = useSession();
  const userId = session.status === 'signed-in' ? session.user.id : undefined;
  const wallets = useBurnWallets(userId);
  const kinds = useWalletKinds();
  const burn = useBurn();
  const formId = useId();

  // Not on react-hook-form (issue 41 looked): nothing here is typed into a request field as it is
  // sent. The wallet and token are picked from lists, the amount and the percent slider drive each
  // other, and the checks are live, on the button that says what is missing (issue 25), so the
  // form never submits something wrong; burnRequestSchema is the server's check of what it sends.
  const [walletAddress, setWalletAddress] = useState<string>();
  const [selectedToken, setSelectedToken] = useState<string>();
  const [amount, setAmount] = useState('');
  const [percent, setPercent] = useState(0);
  const [errors, setErrors] = useState<string[]>([]);
  const [result, setResult] = useState<BurnResult>();

  const list = wallets.data;
  // The selection is re-found in every reload: a wallet or token that is gone (burned to zero) drops out.
  const wallet = list?.find((w) => w.walletAddress === walletAddress);
  const token = wallet?.tokens.find((t) => tokenKey(t) === selectedToken);
  const busy = burn.isPending;

  const resetForm = () => {
    setAmount('');
    setPercent(0);
    setErrors([]);
  };
  const chooseWallet = (w: BurnWallet) => {
    if (w.walletAddress === walletAddress) return;
    setWalletAddress(w.walletAddress);
    setSelectedToken(undefined);
    resetForm();
  };
  const chooseToken = (t: BurnToken) => {
    setSelectedToken(tokenKey(t));
    resetForm();
  };
  const onAmount = (value: string) => {
    setAmount(value);
    setErrors([]);
    setPercent(token ? percentOf(value.trim(), token.balance) : 0);
  };
  const onPercent = (value: number) => {
    setPercent(value);
    setErrors([]);
    setAmount(token ? burnAmountForPercent(token.balance, value) : '');
  };

  // The button says why it cannot burn yet (issue 25); the spec's sentences say what is wrong.
  const value = amount.trim();
  const reason: { label: string; detail?: string } | null =
    !wallet || !token
      ? { label: 'Choose a wallet and a token' }
      : value === ''
        ? { label: 'Enter an amount' }
        : !isValidBurnAmount(value)
          ? { label: 'Enter a valid amount', detail: BURN_MESSAGES.invalidInput }
          : new Decimal(value).gt(token.balance)
            ? { label: insufficientBalanceLabel(token.ascii), detail: BURN_MESSAGES.moreThanHeld }
            : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || reason || !wallet || !token) return;
    setErrors([]);
    const signer = kinds.get(wallet.walletAddress);
    burn.mutate(
      {
        body: {
          walletAddress: wallet.walletAddress,
          issuerAddress: token.issuer,
          tokenCode: token.tokenCode,
          amount: value,
        },
        wallet: {
          wallet_address: wallet.walletAddress,
          kind: signer?.kind,
          wallet_app: signer?.app,
          wallet_name: signer?.name,
        },
      },
      {
        onSuccess: (answer) => {
          setResult(answer);
          setAmount('');
          setPercent(0);
        },
        onError: (error) => setErrors(failureOf(error)),
      },
    );
  };

  return (
    <div className="burner-page">
      <div className="page-title-row">
        <h1>Token Burner</h1>
      </div>
      <p className="muted burner-intro">
        Burning sends tokens back to their issuer, which removes them from circulation for good.
      </p>

      {wallets.isPending || !list || list.length === 0 ? (
        <WalletListState
          pending={wallets.isPending}
          failed={!list}
          loading="Loading wallets…"
          error={BURN_MESSAGES.fetchFailed}
          onRetry={() => void wallets.refetch()}
        />
      ) : (
        <div className="burner-grid">
          <section className="panel burner-section" aria-labelledby={`${formId}-wallets`}>
            <h2 id={`${formId}-wallets`} className="burner-heading">
              Wallets
            </h2>
            {wallets.isError && (
              <p className="form-error" role="status">
                {BURN_MESSAGES.fetchFailed}
              </p>
            )}
            <ul className="burner-list" aria-label="Your wallets">
              {list.map((w) => (
                <li key={w.walletAddress}>
                  <button
                    type="button"
                    className="burner-option"
                    aria-pressed={w.walletAddress === walletAddress}
                    onClick={() => chooseWallet(w)}
                    disabled={busy}
                  >
                    {/* The wallet's name first (issue 39: the list showed raw addresses only). */}
                    {kinds.get(w.walletAddress)?.name && (
                      <span className="burner-wallet-name">{kinds.get(w.walletAddress)!.name}</span>
                    )}
                    <span className="burner-mono burner-address">{w.walletAddress}</span>
                    <WalletKindBadge
                      kind={kinds.get(w.walletAddress)?.kind}
                      app={kinds.get(w.walletAddress)?.app}
                    />
                    <span className="burner-figure">{formatXrp(w.xrpBalance)} XRP</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>

          <section className="panel burner-section" aria-labelledby={`${formId}-tokens`}>
            <h2 id={`${formId}-tokens`} className="burner-heading">
              Tokens
            </h2>
            {!wallet ? (
              <p className="muted">Choose a wallet to see the tokens it holds.</p>
            ) : wallet.tokens.length === 0 ? (
              <p className="muted">{BURN_MESSAGES.noTokens}</p>
            ) : (
              <ul className="burner-list" aria-label={`Tokens of ${shortAddress(wallet.walletAddress)}`}>
                {wallet.tokens.map((t) => (
                  <li key={tokenKey(t)}>
                    <button
                      type="button"
                      className="burner-option"
                      aria-pressed={tokenKey(t) === selectedToken}
                      onClick={() => chooseToken(t)}
                      disabled={busy}
                    >
                      <span className="burner-token-name">
                        <strong>{t.ascii}</strong>
                        <span className="muted small burner-mono">{shortAddress(t.issuer)}</span>
                      </span>
                      <span className="burner-figure">{grouped(t.balance)}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section className="panel burner-section burner-form-panel" aria-labelledby={`${formId}-burn`}>
            <h2 id={`${formId}-burn`} className="burner-heading">
              Burn
            </h2>
            <p className="muted small burner-selected">
              {token ? (
                <>
                  Balance: <strong>{grouped(token.balance)}</strong> {token.ascii}
                </>
              ) : (
                'Choose a wallet and a token to burn.'
              )}
            </p>
            <form className="form burner-form" onSubmit={onSubmit} noValidate>
              <AmountField
                id={`${formId}-amount`}
                label="Amount to burn"
                value={amount}
                onChange={onAmount}
                disabled={busy}
                invalid={errors.length > 0 || reason?.detail !== undefined}
                describedBy={errors.length || reason?.detail ? `${formId}-errors` : undefined}
              />
              <div className="field">
                <label className="field-label" htmlFor={`${formId}-percent`}>
                  Percent of balance: {percent}%
                </label>
                <input
                  id={`${formId}-percent`}
                  className="burner-slider"
                  type="range"
                  min={0}
                  max={100}
                  step={1}
                  value={percent}
                  onChange={(e) => onPercent(Number(e.target.value))}
                  disabled={busy || !token}
                  aria-valuetext={`${percent}%`}
                />
              </div>
              <div id={`${formId}-errors`} className="form-error" role="alert">
                {[...(reason?.detail ? [reason.detail] : []), ...errors].map((m) => (
                  <p key={m}>{m}</p>
                ))}
              </div>
              <button type="submit" className="btn-danger burner-submit" disabled={busy || reason !== null}>
                {busy ? 'Burning…' : (reason?.label ?? 'Burn Tokens')}
              </button>
            </form>
          </section>
        </div>
      )}

      <Modal
        open={result !== undefined}
        onOpenChange={(open) => !open && setResult(undefined)}
        title="Tokens burned"
        role="alertdialog"
      >
        {result && (
          <div className="burner-result">
            <p>
              You burned{' '}
              <strong data-testid="burned-amount">
                {grouped(result.burned)} {result.token}
              </strong>
              .
            </p>
            <p className="muted small">
              Outstanding supply now: {grouped(result.outstandingSupply)} {result.token}
            </p>
            <p className="muted small burner-mono burner-hash">Transaction: {result.hash}</p>
            <ModalActions>
              <button type="button" onClick={() => setResult(undefined)}>
                Close
              </button>
            </ModalActions>
          </div>
        )}
      </Modal>
    </div>
  );
}
