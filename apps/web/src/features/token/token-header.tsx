import * as Tooltip from '@radix-ui/react-tooltip';
import { toast } from 'sonner';
import {
  displayTicker,
  formatFull,
  formatPrice,
  TOOLTIP_FADE_MS,
  tokenBadge,
  tokenLinks,
  type PriceChange,
  type TokenView,
} from '@ledgerpad/shared';
import { Link } from 'react-router';
import { copyText } from '../../components/copy-button';
import { IdentityBadge, ListerLinksNote } from '../../components/identity-badge';

// The token detail header (spec 000 §2): logo, ticker, badge, the issuer with click-to-copy and its
// tooltip, the social links, and the price-change strip.

export function TokenHeader({
  token,
  price,
  lastTrade,
  quote,
  changes,
  changesLoading,
}: {
  token: TokenView;
  /**
   * The token's price in the quote asset (the pool's spot, or the curve's next offer: the list's and
   * the API's), null without a market.
   */
  price: string | null;
  /** The last trade's average price, shown beside it as 'last'. */
  lastTrade: string | null;
  quote: 'XRP' | 'RLUSD';
  changes: PriceChange[];
  changesLoading: boolean;
}) {
  const badge = tokenBadge(token);
  const unit = quote === 'RLUSD' ? 'RLUSD' : 'XRP';
  const links = tokenLinks(token.links);
  const copyIssuer = async () => {
    try {
      await copyText(token.issuer_address);
      toast.success('Issuer address copied to clipboard!');
    } catch {
      toast.error('Failed to copy issuer address!');
    }
  };

  return (
    <header className="panel token-header">
      <div className="token-identity">
        {token.logoUrl ? (
          <img className="token-page-logo" src={token.logoUrl} alt="" width={56} height={56} />
        ) : (
          <span className="token-page-logo token-logo-empty" aria-hidden="true">
            {token.ticker.slice(0, 1)}
          </span>
        )}
        <div className="token-titles">
          <h1>
            {displayTicker(token.ticker)}
            {badge && <span className={`badge badge-${badge.toLowerCase()}`}>{badge}</span>}
            <IdentityBadge token={token} />
          </h1>
          <p className="muted tp-name">{token.name}</p>
          <Tooltip.Provider delayDuration={TOOLTIP_FADE_MS}>
            <Tooltip.Root>
              <Tooltip.Trigger asChild>
                <button type="button" className="issuer-copy" onClick={() => void copyIssuer()}>
                  <span className="issuer-label">Issuer</span>
                  <span className="issuer-address">{token.issuer_address}</span>
                </button>
              </Tooltip.Trigger>
              <Tooltip.Portal>
                <Tooltip.Content className="tooltip" sideOffset={6}>
                  Click to copy issuer address
                  <Tooltip.Arrow className="tooltip-arrow" />
                </Tooltip.Content>
              </Tooltip.Portal>
            </Tooltip.Root>
          </Tooltip.Provider>
        </div>
      </div>
      <div className="token-price-block">
        <p
          className="token-price"
          data-testid="price"
          title={
            price
              ? `${formatFull(price)} ${unit}: ${token.is_bonding_curve && token.bonding_active ? "the curve's next price" : "the pool's spot price"}, as the token list and market cap use it`
              : undefined
          }
        >
          {price ? (
            <>
              <span className="figure">{formatPrice(price)}</span> <span className="unit">{unit}</span>
            </>
          ) : (
            <span className="figure">no market</span>
          )}
        </p>
        <p className="muted small token-last">
          Last trade{' '}
          <span data-testid="live-price" title={lastTrade ? `${formatFull(lastTrade)} ${unit}` : undefined}>
            <span className="figure">{lastTrade ? formatPrice(lastTrade) : '—'}</span>
            {lastTrade && <span className="unit"> {unit}</span>}
          </span>
        </p>
        <ul className="price-changes" aria-label="Price change">
          {changes.map((c) => (
            <li key={c.label} data-testid={`change-${c.label}`}>
              <span className="muted">{c.label}</span>{' '}
              {changesLoading ? (
                <span className="muted">…</span>
              ) : c.percent === null ? (
                <span className="muted">N/A</span>
              ) : (
                <span className={c.positive ? 'up' : 'down'}>{c.percent}%</span>
              )}
            </li>
          ))}
        </ul>
        {links.length > 0 && (
          <nav className="token-links" aria-label="Token links">
            {links.map((l) => (
              <a key={l.label} href={l.url} target="_blank" rel="noopener noreferrer nofollow">
                {l.label}
              </a>
            ))}
            <ListerLinksNote token={token} />
          </nav>
        )}
        {/* The real issuer is never locked out of a listing someone else made (issue 24). */}
        <Link
          className="claim-link"
          to={`/list-token?${new URLSearchParams({ claim: token.issuer_address, currency: token.currency }).toString()}`}
        >
          {token.verified ? 'Issuer? Update this listing' : 'Is this your token? Claim this listing'}
        </Link>
      </div>
    </header>
  );
}
