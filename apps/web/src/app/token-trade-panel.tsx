import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { displayTicker, type TokenView } from '@ledgerpad/shared';
import { LoginBox } from '../components/login-box';
import { useSession } from '../lib/session';

// Trade where you look (issue 39): the token page's buy/sell box beside the chart — the /swap box
// itself with the token fixed (SwapPanel's `lockedToken`): the same wallet choice, disclosure,
// warnings and guards. Features never import each other, so the app puts the swap feature's panel
// into the token page's slot (routes.tsx). Loaded when shown: a visitor's token page does not carry it.

const SwapPanel = lazy(() => import('../features/swap/swap-page').then((m) => ({ default: m.SwapPanel })));

export function TokenTradePanel({
  token,
}: {
  token: Pick<TokenView, 'issuer_address' | 'currency' | 'ticker'>;
}) {
  const session = useSession();
  const { pathname, search } = useLocation();
  const ticker = displayTicker(token.ticker);
  return (
    <section className="tp-trade" aria-labelledby="tp-trade-title">
      <h2 id="tp-trade-title" className="tp-trade-title">
        Trade {ticker}
      </h2>
      {session.status === 'signed-in' ? (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <SwapPanel lockedToken={{ issuer: token.issuer_address, code: token.currency, ticker }} />
        </Suspense>
      ) : session.status === 'loading' ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <p className="muted">Log in to buy or sell {ticker} here.</p>
          <LoginBox returnTo={`${pathname}${search}`} />
        </>
      )}
    </section>
  );
}
