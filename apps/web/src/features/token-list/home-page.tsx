import { Link } from 'react-router';
import { useSession } from '../../lib/session';
import { LoginBox } from '../../components/login-box';
import { TokenList } from './token-list';

export function HomePage() {
  const session = useSession();
  return (
    <>
      <section className="hero">
        <h1>Launch and trade XRPL tokens in seconds</h1>
        <p className="promo">Launch with an RLUSD pairing: stable liquidity from the first trade.</p>
      </section>
      {/* Logged in, the menu bar replaces the login content (spec §2). */}
      {session.status === 'anonymous' && <LoginBox />}
      <TokenList />
      <section className="panel">
        <h2>Your Token&apos;s Not Here?</h2>
        <p>
          Listing is free. <Link to="/list-token">List any token</Link> by its issuer address.
        </p>
      </section>
      <section className="panel how-it-works">
        <h2>How It Works</h2>
        <ol>
          <li>Log in</li>
          <li>Deploy tokens</li>
          <li>Trade and manage</li>
        </ol>
      </section>
    </>
  );
}
