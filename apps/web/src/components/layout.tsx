import { lazy, Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { PUBLIC_LINKS } from '@ledgerpad/shared';
import { useIsAdmin } from '../lib/admin-check';
import { useAfterIdle } from '../lib/use-after-idle';
import { useHasDeployed, useSession, useSessionActions } from '../lib/session';
import { PageSkeleton } from './page-skeleton';

// The menus and drawer (and Radix with them) load only for signed-in users.
const SignedInNav = lazy(() => import('./signed-in-nav').then((m) => ({ default: m.SignedInNav })));
// The toast area (sonner) is a chunk of its own, fetched once the page is idle: no first screen
// shows a toast, and on `/` it competed with the list's own chunks.
const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));
// A browser wallet's passphrase prompt: signed-in users only, in a chunk of its own.
const UnlockPrompt = lazy(() => import('./unlock-prompt').then((m) => ({ default: m.UnlockPrompt })));

export function Layout() {
  const { pathname } = useLocation();
  const session = useSession();
  const { logout } = useSessionActions();
  const signedIn = session.status === 'signed-in';
  const hasDeployed = useHasDeployed(signedIn);
  const isAdmin = useIsAdmin();
  const idle = useAfterIdle();

  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <div className="background" aria-hidden="true" />
      <header className="header">
        <div className="header-inner">
          <Link to="/" className="logo" aria-label="Ledgerpad home">
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <span>Ledgerpad</span>
          </Link>
          {/* While the user is loading nothing is shown here (spec §2). */}
          {session.status === 'anonymous' && pathname !== '/' && (
            <nav className="menu" aria-label="Main">
              <Link to="/" className="menu-link">
                Token List
              </Link>
            </nav>
          )}
          {session.status === 'signed-in' && (
            <Suspense fallback={null}>
              <SignedInNav
                user={session.user}
                hasDeployed={hasDeployed}
                isAdmin={isAdmin}
                onLogout={() => void logout()}
              />
            </Suspense>
          )}
        </div>
      </header>
      <main className="main" id="main" tabIndex={-1}>
        <Suspense fallback={<PageSkeleton />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="footer">
        <nav aria-label="Footer">
          <Link to="/terms">Terms of Service</Link>
          <Link to="/privacy-policy">Privacy Policy</Link>
          <a href={PUBLIC_LINKS.social} target="_blank" rel="noopener noreferrer">
            X (Twitter)
          </a>
          <a href={PUBLIC_LINKS.support} target="_blank" rel="noopener noreferrer">
            Support chat
          </a>
        </nav>
        <p>© {new Date().getFullYear()} Ledgerpad. All rights reserved.</p>
      </footer>
      {idle && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
      {signedIn && (
        <Suspense fallback={null}>
          <UnlockPrompt />
        </Suspense>
      )}
    </div>
  );
}
