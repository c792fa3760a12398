import { describe, expect, it, vi } from 'vitest';
import { encode } from 'xrpl';
import type * as External from '../src/lib/signer/external';
import type * as Lock from '../src/lib/signer/lock';
import { signIntent } from '../src/lib/signer';
import { ACCOUNT, batchIntent, outer } from './batch-swap-intent';

// A self-custody swap where the ledger has Batch arrives as a 'batch' intent: txs = [the outer
// Batch carrying RawTransactions, then each inner transaction as prepared]. The wallet signs the
// outer only — exactly as the server sent it, inner transactions included — and one blob goes back
// (the server checks it with checkSignedBatch; apps/server/test/self-custody/swap-batch.test.ts
// signs the same shape with a real xrpl.js Wallet). Stood in for: the vault's unlock and xrpl.js's
// signature itself (jsdom's typed arrays are not the ones xrpl.js's curves accept), and the wallet
// app's adapter.

const signed = vi.hoisted(() => ({ calls: [] as Array<{ where: string; txs: unknown[] }> }));
vi.mock('../src/lib/signer/lock', async (actual) => ({
  ...(await actual<typeof Lock>()),
  requestUnlock: async () => undefined,
  withSecret: async <T>(_address: string, read: (secret: { kind: 'seed'; seed: string }) => T) =>
    read({ kind: 'seed', seed: 'sEdTdqPXgy1zJyNhBVKyDaqSZ2f5PFc' }),
}));
vi.mock('../src/lib/signer/keys', () => ({
  signAll: (_secret: unknown, _address: string, txs: unknown[]) => {
    signed.calls.push({ where: 'browser', txs });
    return txs.map(() => 'AB'.repeat(40));
  },
}));
vi.mock('../src/lib/signer/external', async (actual) => ({
  ...(await actual<typeof External>()),
  signInApp: async (_app: string, _address: string, txs: Array<Record<string, unknown>>) => {
    signed.calls.push({ where: 'external', txs });
    // The app's answer: the signed outer Batch (the web checks it is the Batch before posting it).
    return txs.map((tx) =>
      encode({ ...tx, SigningPubKey: `ED${'5F'.repeat(32)}`, TxnSignature: 'CD'.repeat(64) } as never),
    );
  },
}));

const intent = batchIntent;

describe("a Batch intent in the web's signer", () => {
  it('a browser wallet signs the outer Batch only, as sent, and answers one blob', async () => {
    signed.calls.length = 0;
    const blobs = await signIntent({ wallet_address: ACCOUNT, kind: 'browser' }, intent);
    expect(blobs).toHaveLength(1);
    expect(signed.calls).toEqual([{ where: 'browser', txs: [outer] }]);
  });

  it('a wallet app is asked for the outer Batch only, too', async () => {
    signed.calls.length = 0;
    const blobs = await signIntent(
      { wallet_address: ACCOUNT, kind: 'external', wallet_app: 'gemwallet' },
      intent,
    );
    expect(blobs).toHaveLength(1);
    expect(signed.calls).toEqual([{ where: 'external', txs: [outer] }]);
  });
});
