import { lazy, Suspense, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ONRAMP_MESSAGES, PUBLIC_LINKS } from '@ledgerpad/shared';
import { useOnrampConfig } from '../../lib/onramp';
import { useSession } from '../../lib/session';
import { LoginBox } from '../../components/login-box';
import { usePlatformFees } from '../../lib/platform-fees';
import { CardSection, HOW_IT_WORKS, keyFeatures } from './card-sections';
import { useDemoStatus } from './api';
import { TokenList } from './token-list';
import './home.css';

// The on-ramp modal (Radix dialog, toasts) loads only when someone opens it: the landing chunk
// stays small.
const BuyXrpDialog = lazy(() =>
  import('../../components/buy-xrp-dialog').then((m) => ({ default: m.BuyXrpDialog })),
);

/**
 * On the embedded demo ledger the list is the demo seed's market: say so, so nobody mistakes its
 * tokens and trades for a live network's.
 */
function DemoNotice() {
  const { data } = useDemoStatus();
  if (!data || data.demo === 'off' || data.demo === 'failed') return null;
  return (
    <p className="demo-notice" data-testid="demo-notice">
      {data.demo === 'seeding'
        ? 'Setting up the demo market on the embedded ledger: tokens appear as they launch.'
        : 'Demo market: these tokens and trades are simulated on the embedded ledger, not a public network.'}
    </p>
  );
}

export function HomePage() {
  const session = useSession();
  const fees = usePlatformFees();
  const current =
    fees.data?.trading_fee_percent !== undefined
      ? { trading: fees.data.trading_fee_percent, creation: fees.data.service_fee }
      : null;
  return (
    <div className="home">
      <section className="hero">
        <h1>Launch and trade XRPL tokens in seconds</h1>
        <p className="promo-banner" role="note">
          <strong>New:</strong> launch with an RLUSD pairing — stable liquidity from the first trade.
        </p>
        <CardBuyButton />
      </section>
      {/* Logged in, the menu bar replaces the login content (spec §2). */}
      {session.status === 'anonymous' && <LoginBox />}
      <DemoNotice />
      <TokenList />
      <section className="panel add-token" aria-labelledby="add-token-title">
        <h2 id="add-token-title">Your Token&apos;s Not Here?</h2>
        <p>Listing is free. Any XRPL token can be listed by its issuer address in under a minute.</p>
        <Link to="/list-token" className="button-link">
          List your token for free
        </Link>
      </section>
      <CardSection id="how-title" title="How It Works" items={HOW_IT_WORKS} variant="steps" />
      <CardSection id="features-title" title="Key Features" items={keyFeatures(current)} variant="features" />
      <section className="panel channel-cta" aria-labelledby="channel-title">
        <h2 id="channel-title">Never miss a launch</h2>
        <p>Join our public channel for new token launches, listings and platform news.</p>
        <a className="button-link" href={PUBLIC_LINKS.channel} target="_blank" rel="noopener noreferrer">
          Join the channel
        </a>
      </section>
    </div>
  );
}

/** 'Buy XRP/Crypto with Card': disabled, saying why, when the server has no on-ramp key. */
function CardBuyButton() {
  const onramp = useOnrampConfig();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const off = onramp.status === 'off';
  return (
    <div className="card-buy">
      <button
        ref={button}
        type="button"
        className="card-buy-button"
        disabled={onramp.status !== 'configured'}
        aria-describedby={off ? 'card-buy-off' : undefined}
        title={off ? ONRAMP_MESSAGES.notConfigured : undefined}
        onClick={() => setOpen(true)}
      >
        Buy XRP/Crypto with Card
      </button>
      {off && (
        <p id="card-buy-off" className="muted card-buy-note">
          {ONRAMP_MESSAGES.notConfigured}.
        </p>
      )}
      {open && (
        <Suspense fallback={null}>
          <BuyXrpDialog open variant="home" onOpenChange={setOpen} returnFocusTo={button} />
        </Suspense>
      )}
    </div>
  );
}
