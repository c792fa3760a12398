import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'react-router';
import { displayTicker, type TokenView } from '@ledgerpad/shared';
import { useSession } from '../lib/session';

// Trade where you look (issue 39): the token page's buy/sell box beside the chart — the /swap box
// itself with the token fixed (SwapPanel's `lockedToken`): the same wallet choice, disclosure,
// warnings and guards. Features never import each other, so the app puts the swap feature's panel
// into the token page's slot (routes.tsx). Loaded when shown: a visitor's token page does not carry it.

const SwapPanel = lazy(() => import('../features/swap/swap-page').then((m) => ({ default: m.SwapPanel })));
// A visitor's panel is one line and a button; the login box (its demo form brings react-hook-form
// and zod, ~42 KB gzip) loads when the button is pressed, not before the chart's first candle
// (issue 40: a cold token page's JavaScript and its largest paint).
const LoginBox = lazy(() => import('../components/login-box').then((m) => ({ default: m.LoginBox })));

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
        <VisitorPrompt ticker={ticker} returnTo={`${pathname}${search}`} />
      )}
    </section>
  );
}

/** Signed out: what logging in gives here, and the login box once asked for. */
function VisitorPrompt({ ticker, returnTo }: { ticker: string; returnTo: string }) {
  const [open, setOpen] = useState(false);
  if (open)
    return (
      <Suspense fallback={<p className="muted">Loading…</p>}>
        <LoginBox returnTo={returnTo} />
      </Suspense>
    );
  return (
    <div className="tp-visitor">
      <p className="muted">Log in to buy or sell {ticker} here.</p>
      <button type="button" onClick={() => setOpen(true)}>
        Log in to trade
      </button>
    </div>
  );
}
