import { lazy, useEffect, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from '../components/layout';
import type { TokenView } from '@ledgerpad/shared';
import type * as TokenPageModule from '../features/token/token-page';
import { RequireSignIn } from '../components/require-sign-in';
import { TokenTradePanel } from './token-trade-panel';
import { HomePage } from '../features/token-list/home-page';

// Every page is its own chunk: the first visit downloads the shell and the page it opens, no more.
// The landing page is the exception: it is in the shell, so its first render is the app's first
// render (no second round of chunks before the hero paints; docs/benchmarks.md, landing LCP).
const TermsPage = lazy(() => import('../features/legal/terms-page').then((m) => ({ default: m.TermsPage })));
const PrivacyPage = lazy(() =>
  import('../features/legal/privacy-page').then((m) => ({ default: m.PrivacyPage })),
);
const WalletsPage = lazy(() =>
  import('../features/wallets/wallets-page').then((m) => ({ default: m.WalletsPage })),
);
const ListTokenPage = lazy(() =>
  import('../features/list-token/list-token-page').then((m) => ({ default: m.ListTokenPage })),
);
const DeployPage = lazy(() =>
  import('../features/deploy/deploy-page').then((m) => ({ default: m.DeployPage })),
);
const DashboardPage = lazy(() =>
  import('../features/dashboard/dashboard-page').then((m) => ({ default: m.DashboardPage })),
);
// The token page's chunk, kept once loaded: a page whose HTML carries its first screen (the server's
// static markup, docs/web-delivery.md) loads it before React's first render (boot.tsx), and then
// renders it at once — a lazy component would suspend on its first render even then, replacing the
// static markup with the skeleton for a frame.
let tokenPageModule: typeof TokenPageModule | undefined;
export const loadTokenPage = () => import('../features/token/token-page').then((m) => (tokenPageModule = m));
const LazyTokenPage = lazy(() => loadTokenPage().then((m) => ({ default: m.TokenPage })));
function TokenPage(props: { trade?: TokenPageModule.TokenTradeSlot }) {
  const Loaded = tokenPageModule?.TokenPage;
  return Loaded ? <Loaded {...props} /> : <LazyTokenPage {...props} />;
}
const SwapPage = lazy(() => import('../features/swap/swap-page').then((m) => ({ default: m.SwapPage })));
const OrdersPage = lazy(() =>
  import('../features/orders/orders-page').then((m) => ({ default: m.OrdersPage })),
);
const PositionsPage = lazy(() =>
  import('../features/positions/positions-page').then((m) => ({ default: m.PositionsPage })),
);
const BurnerPage = lazy(() =>
  import('../features/burner/burner-page').then((m) => ({ default: m.BurnerPage })),
);
const AirdropsPage = lazy(() =>
  import('../features/airdrops/airdrops-page').then((m) => ({ default: m.AirdropsPage })),
);
const CreateAirdropPage = lazy(() =>
  import('../features/airdrops/create-airdrop-page').then((m) => ({ default: m.CreateAirdropPage })),
);
const ReferralsPage = lazy(() =>
  import('../features/referrals/referrals-page').then((m) => ({ default: m.ReferralsPage })),
);
const AdminPage = lazy(() => import('../features/admin/admin-page').then((m) => ({ default: m.AdminPage })));
const NotFoundPage = lazy(() =>
  import('../features/not-found/not-found-page').then((m) => ({ default: m.NotFoundPage })),
);

const HOME_TITLE = 'Ledgerpad — launch and trade XRPL tokens';

interface PageRoute {
  path: string;
  /** document.title is '<title> · Ledgerpad'. */
  title: string;
  element: ReactNode;
  /** Tool pages: signed-out visitors get the sign-in prompt (spec §6). */
  signIn?: boolean;
}

/** The token page's buy/sell box (issue 39): the swap feature's panel, placed by the app. */
const tokenTrade = (token: TokenView) => <TokenTradePanel token={token} />;

// The route table of both specs' section 2.
const PAGES: PageRoute[] = [
  { path: 'terms', title: 'Terms of Service', element: <TermsPage /> },
  { path: 'privacy-policy', title: 'Privacy Policy', element: <PrivacyPage /> },
  // Token detail is public (second spec §6).
  { path: 'token/:issuerAddress', title: 'Token', element: <TokenPage trade={tokenTrade} /> },
  // One page per token (issue 35): /token/{issuer} asks which when the issuer lists several.
  { path: 'token/:issuerAddress/:currency', title: 'Token', element: <TokenPage trade={tokenTrade} /> },
  { path: 'deploy-list', title: 'Deploy and List', element: <DeployPage />, signIn: true },
  { path: 'swap', title: 'Swap', element: <SwapPage />, signIn: true },
  { path: 'wallets', title: 'Wallets', element: <WalletsPage />, signIn: true },
  // The board is public (anyone can look; claiming asks for sign-in); creating needs a user.
  { path: 'airdrops', title: 'Airdrops', element: <AirdropsPage /> },
  { path: 'airdrop/create', title: 'Create Airdrop', element: <CreateAirdropPage />, signIn: true },
  { path: 'positions', title: 'Positions', element: <PositionsPage />, signIn: true },
  { path: 'orders', title: 'Orders Manager', element: <OrdersPage />, signIn: true },
  { path: 'list-token', title: 'List Any Token', element: <ListTokenPage />, signIn: true },
  { path: 'burner', title: 'Token Burner', element: <BurnerPage />, signIn: true },
  { path: 'dashboard', title: 'Token Dashboard', element: <DashboardPage />, signIn: true },
  { path: 'referrals', title: 'Referrals', element: <ReferralsPage />, signIn: true },
  { path: 'admin', title: 'Admin', element: <AdminPage />, signIn: true },
];

export function AppRoutes() {
  const location = useLocation();
  // '/terms/' is '/terms': one address per page (the server treats the slash form as unknown).
  if (location.pathname.length > 1 && location.pathname.endsWith('/')) {
    return <Navigate replace to={{ ...location, pathname: location.pathname.replace(/\/+$/, '') || '/' }} />;
  }
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route
          index
          element={
            <Page title={HOME_TITLE} exactTitle>
              <HomePage />
            </Page>
          }
        />
        {PAGES.map((page) => (
          <Route
            key={page.path}
            path={page.path}
            element={
              <Page title={page.title}>
                {page.signIn ? (
                  <RequireSignIn title={page.title}>{page.element}</RequireSignIn>
                ) : (
                  page.element
                )}
              </Page>
            }
          />
        ))}
        <Route
          path="*"
          element={
            <Page title="Page not found">
              <NotFoundPage />
            </Page>
          }
        />
      </Route>
    </Routes>
  );
}

function Page({ title, exactTitle, children }: { title: string; exactTitle?: boolean; children: ReactNode }) {
  const full = exactTitle ? title : `${title} · Ledgerpad`;
  useEffect(() => {
    document.title = full;
  }, [full]);
  return children;
}
