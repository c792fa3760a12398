import { eq, like } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Wallet } from 'xrpl';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { signingIntents } from '../../src/platform/intents/schema';
import type { SignedIn } from '../helpers/test-app';
import { seed, type TradingWorld } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { addSelfCustody, call as callApp } from './helpers';

// The shared test world of the self-custody flows on the ledger (deploy, airdrops, claims): the
// wallet test app with the platform bootstrapped (fee and service wallets, RLUSD), the trading
// world's helpers, and what every such test reads — the calls and an intent's submission records.

export interface SelfCustodyWorld {
  t: WalletTestApp;
  world: TradingWorld;
  call: (
    ...args: Parameters<typeof callApp> extends [unknown, ...infer R] ? R : never
  ) => ReturnType<typeof callApp>;
  /** The submission records of an intent's steps (`<intent key>:step-<i>`). */
  stepsOf: (intentId: string) => Promise<Array<typeof ledgerSubmissions.$inferSelect>>;
  /** Adds `wallet` (ownership proved) to `who`'s wallets and funds it from the faucet. */
  fundedSelfCustody: (
    who: SignedIn,
    wallet: Wallet,
    opts?: Parameters<typeof addSelfCustody>[3],
  ) => Promise<number>;
}

export async function selfCustodyWorld(): Promise<SelfCustodyWorld> {
  const t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on', FAUCET_XRP: '1000' });
  await t.app.platform.accounts.bootstrapped();
  const call: SelfCustodyWorld['call'] = (...args) => callApp(t.app, ...args);
  return {
    t,
    world: seed(t),
    call,
    stepsOf: async (intentId) => {
      const [row] = await t.database.db.select().from(signingIntents).where(eq(signingIntents.id, intentId));
      return t.database.db
        .select()
        .from(ledgerSubmissions)
        .where(like(ledgerSubmissions.intentKey, `${row!.intentKey}:step-%`));
    },
    fundedSelfCustody: async (who, wallet, opts) => {
      const id = (await addSelfCustody(t.app, who, wallet, opts)).id;
      expect((await call(who, 'POST', `/api/wallets/${id}/fund`)).statusCode).toBe(200);
      return id;
    },
  };
}
