import { expect } from 'vitest';
import type { TokenView } from '@ledgerpad/shared';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/test-app';

// What the identity tests share (issue 35): an app on the embedded ledger closing every 100 ms with
// the platform bootstrapped (the network has its RLUSD issuer), and the calls they make through it.

export async function identityApp(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({ closeIntervalMs: 100, env: { PLATFORM_BOOTSTRAP: 'on', ...env } });
  await t.app.ready();
  await t.app.platform.accounts.bootstrapped();
  return t;
}

export function identityCalls(t: TestApp) {
  const post = (url: string, who: SignedIn, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, payload });
  const get = (url: string, who?: SignedIn) => t.app.inject({ url, headers: who ? who.headers : {} });
  return {
    post,
    get,
    /** POST /api/admin/tokens/add as `who` (any user may list): the listed token. */
    async listAs(who: SignedIn, issuer: string, fields: Record<string, unknown> = {}): Promise<TokenView> {
      const res = await post('/api/admin/tokens/add', who, {
        issuer_address: issuer,
        name: 'Listed Name',
        description: '',
        ...fields,
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { token: TokenView }).token;
    },
    /** The seed becomes one of `who`'s Ledgerpad wallets. */
    async importWallet(who: SignedIn, seed: string): Promise<{ id: number }> {
      const res = await post('/api/wallets/import', who, { seed });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { id: number };
    },
    /** The token view of an issuer (GET /api/tokens/issuer/…). */
    async view(issuer: string): Promise<TokenView> {
      const res = await get(`/api/tokens/issuer/${issuer}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as TokenView;
    },
  };
}

/** The metadata a claim or a controller's update writes. */
export const metadata = (name: string, extra: object = {}) => ({
  name,
  description: '',
  twitterLink: '',
  telegramLink: '',
  websiteLink: '',
  ...extra,
});
