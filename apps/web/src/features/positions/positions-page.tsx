import { WalletKindBadge } from '../../components/wallet-kind-badge';
import { useWalletKinds } from '../../lib/wallet-kinds';
import type { KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  POSITIONS_MESSAGES,
  exceedsDepth,
  formatAmount,
  type PositionToken,
  type PositionView,
  formatMoney,
  shortAddress,
} from '@ledgerpad/shared';
import { IdentityBadge } from '../../components/identity-badge';
import { WalletListState } from '../../components/wallet-list-state';
import { useSession } from '../../lib/session';
import { useTokenIdentities } from '../../lib/token-identities';
import { usePositions } from './api';
import './positions.css';

/**
 * /positions (spec 001 §2 Positions): per wallet, the XRP row then each token with its value and
 * profit and loss in XRP (average cost, net of fees, docs/positions.md). A token's value is what
 * selling it now would return, spot beside it, marked when well below spot (issue 39). A token row opens the swap screen on
 * that wallet and token. Refreshes every 5 s.
 */
export function PositionsPage() {
  const session = useSession();
  const userId = session.status === 'signed-in' ? session.user.id : undefined;
  const positions = usePositions(userId);
  const list = positions.data;
  const anyTokens = list?.some((p) => p.tokens.length > 0 || (p.liquidity?.length ?? 0) > 0) ?? false;

  return (
    <div className="positions-page">
      <div className="page-title-row">
        <h1>Positions</h1>
      </div>
      {positions.isPending || !list || list.length === 0 ? (
        <WalletListState
          pending={positions.isPending}
          failed={!list}
          loading="Loading positions…"
          error={POSITIONS_MESSAGES.fetchFailed}
          onRetry={() => void positions.refetch()}
        />
      ) : (
        <>
          {positions.isError && (
            // Figures from the last successful refresh stay; say they may be stale.
            <p className="form-error positions-stale" role="status">
              {POSITIONS_MESSAGES.fetchFailed}
            </p>
          )}
          {!anyTokens && (
            <p className="muted positions-only-xrp">
              Your wallets hold only XRP. <Link to="/swap">Buy a token on the Swap page</Link> to see
              positions here.
            </p>
          )}
          {list.map((p) => (
            <WalletPositions key={p.wallet} position={p} />
          ))}
        </>
      )}
    </div>
  );
}

const isZero = (value: string) => /^-?[0.]+$/.test(value);
/** Profit green, loss red, zero plain. */
const pnlClass = (value: string) =>
  isZero(value) ? 'pnl' : value.startsWith('-') ? 'pnl negative' : 'pnl positive';

/** An XRP figure in the one format (to the drop, grouped), with a sign for profit and loss. */
function formatXrp(value: string, signed = false): string {
  const negative = value.startsWith('-');
  const body = formatMoney(negative ? value.slice(1) : value, 'XRP');
  if (isZero(value)) return body;
  if (negative) return `−${body}`;
  return signed ? `+${body}` : body;
}

function WalletPositions({ position }: { position: PositionView }) {
  const identity = useTokenIdentities();
  const signer = useWalletKinds().get(position.wallet);
  const navigate = useNavigate();
  const title = position.walletName ?? 'Wallet';
  const open = (token: PositionToken) =>
    void navigate('/swap', {
      state: { walletAddress: position.wallet, issuerAddress: token.issuer, tokenCode: token.tokenCode },
    });
  const onKey = (token: PositionToken) => (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open(token);
    }
  };
  return (
    <section className="panel positions-wallet" aria-label={`Positions of ${title}`}>
      <h2 className="positions-wallet-title">
        {title}{' '}
        <span className="muted positions-mono positions-address">{shortAddress(position.wallet)}</span>{' '}
        <WalletKindBadge kind={signer?.kind} app={signer?.app} />
      </h2>
      <div className="positions-table-wrap">
        <table className="positions-table">
          <thead>
            <tr>
              <th scope="col">Token</th>
              <th scope="col" className="num">
                Balance
              </th>
              <th scope="col" className="num">
                Value (XRP)
              </th>
              <th scope="col" className="num">
                Realized PNL (net of fees)
              </th>
              <th scope="col" className="num">
                Unrealized PNL (net of fees)
              </th>
              <th scope="col" className="num">
                Total PNL (net of fees)
              </th>
            </tr>
          </thead>
          <tbody>
            <tr className="positions-xrp">
              <th scope="row">XRP</th>
              <td className="num" data-label="Balance">
                {formatXrp(position.xrpBalance)}
              </td>
              <td className="num positions-na" data-label="Value (XRP)">
                {formatXrp(position.xrpBalance)}
              </td>
              <td className="num muted positions-na">—</td>
              <td className="num muted positions-na">—</td>
              <td className="num muted positions-na">—</td>
            </tr>
            {position.tokens.map((token) => (
              <tr
                key={`${token.tokenCode}|${token.issuer}`}
                className="row-link"
                tabIndex={0}
                aria-label={`Trade ${token.ticker} on the Swap page`}
                onClick={() => open(token)}
                onKeyDown={onKey(token)}
              >
                <th scope="row">
                  <span className="positions-ticker">{token.ticker}</span>
                  <span className="muted small positions-mono positions-issuer">
                    {shortAddress(token.issuer)}
                  </span>
                  <span className="positions-identity">
                    <IdentityBadge token={identity(token.tokenCode, token.issuer)} compact plain />
                  </span>
                </th>
                <td className="num" data-label="Balance" title={token.balance}>
                  {formatAmount(token.balance)}
                  {token.locked && (
                    <span
                      className="muted small positions-locked"
                      title="In escrows on the ledger: not spendable"
                    >
                      {' '}
                      + {formatAmount(token.locked)} locked
                    </span>
                  )}
                </td>
                <td
                  className="num"
                  data-label="Value (XRP)"
                  title="What selling the whole balance now would return, after the platform fee; spot: balance × the current price"
                >
                  <span className="positions-value">
                    <span className="positions-realisable">{formatXrp(token.realisableXRP)}</span>
                    {!isZero(token.valueInXRP) && (
                      <span className="muted small positions-spot">spot {formatXrp(token.valueInXRP)}</span>
                    )}
                    {exceedsDepth(token) && <span className="small positions-depth">exceeds pool depth</span>}
                  </span>
                </td>
                <td className={`num ${pnlClass(token.realizedPNL)}`} data-label="Realized PNL (net of fees)">
                  {formatXrp(token.realizedPNL, true)}
                </td>
                <td
                  className={`num ${pnlClass(token.unrealizedPNL)}`}
                  data-label="Unrealized PNL (net of fees)"
                >
                  {formatXrp(token.unrealizedPNL, true)}
                </td>
                <td className={`num ${pnlClass(token.totalPNL)}`} data-label="Total PNL (net of fees)">
                  {formatXrp(token.totalPNL, true)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {position.liquidity && position.liquidity.length > 0 && (
        <div className="positions-table-wrap">
          <table className="positions-table positions-liquidity" aria-label={`Pool shares of ${title}`}>
            <thead>
              <tr>
                <th scope="col">Pool</th>
                <th scope="col" className="num">
                  LP tokens
                </th>
                <th scope="col" className="num">
                  Share
                </th>
                <th scope="col" className="num">
                  Holds
                </th>
                <th scope="col" className="num">
                  Value (XRP)
                </th>
              </tr>
            </thead>
            <tbody>
              {position.liquidity.map((lp) => (
                <tr key={lp.ammAccount}>
                  <th scope="row">
                    <span className="positions-ticker">
                      {lp.ticker}/{lp.quote}
                    </span>
                    <span className="muted small positions-mono positions-issuer">
                      {shortAddress(lp.ammAccount)}
                    </span>
                  </th>
                  <td className="num" data-label="LP tokens" title={lp.lpBalance}>
                    {formatAmount(lp.lpBalance)}
                  </td>
                  <td className="num" data-label="Share" title={`${lp.sharePercent}%`}>
                    {formatAmount(lp.sharePercent)}%
                  </td>
                  <td className="num" data-label="Holds">
                    {formatAmount(lp.pooledQuote)} {lp.quote} + {formatAmount(lp.pooledTokens)} {lp.ticker}
                  </td>
                  <td className="num" data-label="Value (XRP)">
                    {formatXrp(lp.valueInXRP)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
