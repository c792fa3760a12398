import { Route, Routes } from 'react-router';
import { Layout } from '../components/layout';
import { HomePage } from '../features/token-list/home-page';
import { PrivacyPage, TermsPage } from '../features/legal/legal-pages';
import { PlaceholderPage } from '../features/placeholder/placeholder-page';

// The route table of both specs' section 2. Pages that later issues build show a placeholder.
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomePage />} />
        <Route path="terms" element={<TermsPage />} />
        <Route path="privacy-policy" element={<PrivacyPage />} />
        <Route path="token/:issuerAddress" element={<PlaceholderPage title="Token" />} />
        <Route path="deploy-list" element={<PlaceholderPage title="Deploy and List Token" />} />
        <Route path="swap" element={<PlaceholderPage title="Swap" />} />
        <Route path="wallets" element={<PlaceholderPage title="Wallets" />} />
        <Route path="airdrops" element={<PlaceholderPage title="Airdrops" />} />
        <Route path="airdrop/create" element={<PlaceholderPage title="Create Airdrop" />} />
        <Route path="positions" element={<PlaceholderPage title="Positions" />} />
        <Route path="orders" element={<PlaceholderPage title="Your Open Orders" />} />
        <Route path="list-token" element={<PlaceholderPage title="List Any Token" />} />
        <Route path="burner" element={<PlaceholderPage title="Token Burner" />} />
        <Route path="dashboard" element={<PlaceholderPage title="Token Management" />} />
        <Route path="admin" element={<PlaceholderPage title="Admin" />} />
        <Route path="*" element={<PlaceholderPage title="Page not found" />} />
      </Route>
    </Routes>
  );
}
