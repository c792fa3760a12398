import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { useHasDeployed, useSession, useSessionActions } from '../lib/session';
import { UserMenu } from './user-menu';

const MENU = [
  { to: '/deploy-list', label: 'Deploy and List' },
  { to: '/swap', label: 'Swap' },
  { to: '/wallets', label: 'Wallets' },
  { to: '/airdrops', label: 'Airdrops' },
  { to: '/positions', label: 'Positions' },
  { to: '/orders', label: 'Orders Manager' },
  { to: '/list-token', label: 'List Any Token' },
] as const;

export function Layout() {
  const { pathname } = useLocation();
  const session = useSession();
  const { logout } = useSessionActions();
  const signedIn = session.status === 'signed-in';
  const hasDeployed = useHasDeployed(signedIn);

  return (
    <div className="app">
      <div className="background" aria-hidden="true" />
      <header className="header">
        <Link to="/" className="logo" aria-label="Ledgerpad home">
          Ledgerpad
        </Link>
        <nav className="menu" aria-label="Main">
          {pathname !== '/' && <Link to="/">Token List</Link>}
          {signedIn &&
            MENU.map((item) => (
              <NavLink key={item.to} to={item.to}>
                {item.label}
              </NavLink>
            ))}
          {signedIn && (
            <details className="tools">
              <summary>XRPL Tools</summary>
              <NavLink to="/burner">Burner</NavLink>
              <NavLink to="/?buy=xrp">Buy XRP</NavLink>
              {hasDeployed && <NavLink to="/dashboard">Token Dashboard</NavLink>}
            </details>
          )}
        </nav>
        {/* While the user is loading nothing is shown here (spec §2). */}
        <div className="session-area">
          {session.status === 'signed-in' && <UserMenu user={session.user} onLogout={() => void logout()} />}
        </div>
      </header>
      <main className="main">
        <Outlet />
      </main>
      <footer className="footer">
        <nav aria-label="Legal">
          <Link to="/terms">Terms of Service</Link>
          <Link to="/privacy-policy">Privacy Policy</Link>
        </nav>
        <p>© {new Date().getFullYear()} Ledgerpad. All rights reserved.</p>
      </footer>
    </div>
  );
}
