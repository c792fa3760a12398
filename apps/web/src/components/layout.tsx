import { Link, Outlet, useLocation } from 'react-router';

export function Layout() {
  const { pathname } = useLocation();
  return (
    <div className="app">
      <div className="background" aria-hidden="true" />
      <header className="header">
        <Link to="/" className="logo" aria-label="Ledgerpad home">
          Ledgerpad
        </Link>
        <nav className="menu" aria-label="Main">
          {pathname !== '/' && <Link to="/">Token List</Link>}
        </nav>
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
