import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useId } from 'react';
import { toast } from 'sonner';
import { useNavigate } from 'react-router';
import {
  WALLET_STATUS,
  WALLETS_NOTIFICATION_MS,
  type WalletBalance,
  type WalletSummary,
  type WalletToken,
  formatFull,
  formatToken,
  formatXrp,
  serverSigns,
  shortAddress,
} from '@ledgerpad/shared';
import { CopyButton, copyText } from '../../components/copy-button';
import { IdentityBadge } from '../../components/identity-badge';
import { useTokenIdentities, type KnownIdentity } from '../../lib/token-identities';
import { WalletKindBadge } from '../../components/wallet-kind-badge';
import { DelegationRow } from './delegation-row';
import { KeyStatus } from './key-status';
import { MESSAGES } from './messages';
import { availableXrp } from '../../lib/wallet-funds';
import { tokenKey, tokenLabel } from './tokens';
import type { FaucetAsset, useFaucet } from './use-faucet';

export interface WalletCardProps {
  wallet: WalletSummary;
  /** undefined while loading; null when balances could not be fetched. */
  balance: WalletBalance | null | undefined;
  faucet: ReturnType<typeof useFaucet>;
  /** The embedded ledger has an RLUSD faucet too. */
  rlusdFaucet: boolean;
  onSend: () => void;
  onRename: () => void;
  onRemove: () => void;
  onSetLimit: (token: WalletToken) => void;
  onRemoveTrustline: (token: WalletToken) => void;
  /** A browser wallet's key, shown after its passphrase. */
  onExport: () => void;
}

function MoreIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
      <circle cx="5" cy="12" r="2" fill="currentColor" />
      <circle cx="12" cy="12" r="2" fill="currentColor" />
      <circle cx="19" cy="12" r="2" fill="currentColor" />
    </svg>
  );
}

/** One wallet: name, address, XRP balance and reserve, status, its tokens and what can be done. */
export function WalletCard({
  wallet,
  balance,
  faucet,
  rlusdFaucet,
  onSend,
  onRename,
  onRemove,
  onSetLimit,
  onRemoveTrustline,
  onExport,
}: WalletCardProps) {
  const titleId = useId();
  const navigate = useNavigate();
  // Each token's identity marks, as the list shows them (issue 35: a fake RLUSD reads so here too).
  const identity = useTokenIdentities();
  const name = wallet.wallet_name ?? 'Wallet';
  const inactive = balance?.status === WALLET_STATUS.inactive;

  const fundButton = (asset: FaucetAsset, label: string) => {
    if (!faucet.available(asset)) return null;
    const busy = faucet.busy(wallet.id, asset);
    const wait = faucet.waitSeconds(wallet.id, asset);
    return (
      <button
        type="button"
        className="btn-secondary"
        disabled={busy || wait > 0}
        onClick={() => faucet.fund(wallet.id, asset)}
        title={wait > 0 ? `Available again in ${wait} s` : undefined}
      >
        {busy ? 'Funding…' : label}
      </button>
    );
  };

  return (
    <article className="wallet-card" aria-labelledby={titleId}>
      <header className="wallet-card-header">
        <div className="wallet-title">
          <h2 id={titleId}>{name}</h2>
          <WalletKindBadge kind={wallet.kind} app={wallet.wallet_app} />
          {inactive && (
            <span
              className="badge badge-inactive"
              title="Not activated: the account is not on the ledger yet"
            >
              INACTIVE
            </span>
          )}
        </div>
        <DropdownMenu.Root modal={false}>
          <DropdownMenu.Trigger className="icon-button" aria-label={`Actions for ${name}`}>
            <MoreIcon />
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="dropdown" align="end" sideOffset={4}>
              <DropdownMenu.Item className="dropdown-item" onSelect={onRename}>
                Rename
              </DropdownMenu.Item>
              <DropdownMenu.Item className="dropdown-item danger" onSelect={onRemove}>
                Remove wallet
              </DropdownMenu.Item>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </header>

      <div className="address-row">
        <code className="address">{wallet.wallet_address}</code>
        <CopyButton
          value={wallet.wallet_address}
          label="Copy address"
          copiedMessage="Address copied"
          failedMessage={MESSAGES.copyAddressFailed}
          duration={WALLETS_NOTIFICATION_MS}
        />
      </div>

      <KeyStatus wallet={wallet} onExport={onExport} />
      {!inactive && <DelegationRow wallet={wallet} />}

      {balance === undefined ? (
        <div className="wallet-balance-block" aria-busy="true" aria-label="Loading balance">
          <div className="skeleton-line skeleton-amount" />
          <div className="skeleton-line skeleton-short" />
        </div>
      ) : balance === null ? (
        <p className="muted wallet-balance-block">Balance unavailable right now.</p>
      ) : (
        <div className="wallet-balance-block">
          <p className="wallet-balance" data-testid="wallet-balance">
            {formatXrp(balance.balance)} <span className="unit">XRP</span>
          </p>
          {inactive ? (
            <p className="muted small">Not activated yet: the wallet activates when it receives XRP.</p>
          ) : (
            <p className="muted small wallet-meta">
              <span>Reserve {formatXrp(balance.ledgerReserve)} XRP</span>
              <span>Available {formatXrp(availableXrp(balance))} XRP</span>
            </p>
          )}
        </div>
      )}

      <div className="wallet-actions">
        <button type="button" onClick={onSend} disabled={!balance || inactive}>
          Send
        </button>
        {fundButton('xrp', 'Fund with test XRP')}
        {/* The RLUSD faucet opens the trust line with the wallet's key: custodial wallets only. */}
        {rlusdFaucet && serverSigns(wallet.kind) && fundButton('rlusd', 'Fund with test RLUSD')}
      </div>

      {balance && balance.tokens.length > 0 && (
        <section className="token-section" aria-label={`Tokens of ${name}`}>
          <h3 className="section-label">Tokens and trust lines</h3>
          <ul className="token-list">
            {balance.tokens.map((token) => (
              <TokenRow
                key={tokenKey(token)}
                token={token}
                identity={token.lpName ? undefined : identity(token.currencyCode, token.issuer)}
                onOpen={
                  token.lpName
                    ? undefined
                    : () =>
                        void navigate('/swap', {
                          state: {
                            walletAddress: wallet.wallet_address,
                            issuerAddress: token.issuer,
                            tokenCode: token.currencyCode,
                          },
                        })
                }
                // Every kind: a self-custody wallet signs the TrustSet itself (lib/signer).
                onSetLimit={() => onSetLimit(token)}
                onRemove={() => onRemoveTrustline(token)}
              />
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}

export function TokenRow({
  token,
  identity,
  onOpen,
  onSetLimit,
  onRemove,
}: {
  token: WalletToken;
  /** The token's identity marks (none for LP tokens: they are no listing). */
  identity?: KnownIdentity;
  /** Non-LP tokens open the swap page for this wallet and token. */
  onOpen?: () => void;
  onSetLimit?: () => void;
  onRemove?: () => void;
}) {
  const label = tokenLabel(token);
  const body = (
    <>
      <span className="token-name">
        <strong>{label}</strong>
        {identity && <IdentityBadge token={identity} compact plain />}
        <span className="muted small" title={token.realIssuer}>
          {shortAddress(token.realIssuer)}
        </span>
      </span>
      {/* At most 6 decimals (the one number format); every digit in the tooltip and 'Copy exact balance'. */}
      <span className="token-value" title={formatFull(token.value)}>
        {formatToken(token.value)}
        {/* Tokens in the wallet's own escrows (a locked dev allocation): never spendable here. */}
        {token.locked && (
          <span className="muted small token-locked" data-testid="token-locked">
            {' '}
            + {formatToken(token.locked)} locked
          </span>
        )}
      </span>
    </>
  );
  return (
    <li className="token-row">
      {onOpen ? (
        <button
          type="button"
          className="token-main"
          onClick={onOpen}
          aria-label={`${label}: ${formatToken(token.value)}. Trade on Swap`}
        >
          {body}
          <span className="token-go" aria-hidden="true">
            ›
          </span>
        </button>
      ) : (
        <div className="token-main static">{body}</div>
      )}
      {onSetLimit && onRemove && (
        <DropdownMenu.Root modal={false}>
          <DropdownMenu.Trigger className="icon-button small" aria-label={`Trust line actions for ${label}`}>
            <MoreIcon />
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="dropdown" align="end" sideOffset={4}>
              <DropdownMenu.Item
                className="dropdown-item"
                onSelect={() =>
                  void copyText(token.value).then(
                    () => toast.success(MESSAGES.balanceCopied),
                    () => toast.error(MESSAGES.copyBalanceFailed),
                  )
                }
              >
                {MESSAGES.copyBalance}
              </DropdownMenu.Item>
              <DropdownMenu.Item className="dropdown-item" onSelect={onSetLimit}>
                Set limit
              </DropdownMenu.Item>
              <DropdownMenu.Item className="dropdown-item danger" onSelect={onRemove}>
                Remove trust line
              </DropdownMenu.Item>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      )}
    </li>
  );
}
