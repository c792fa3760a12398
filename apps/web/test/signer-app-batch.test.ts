import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encode } from 'xrpl';
import type { SigningIntent } from '@ledgerpad/shared';
import { ACCOUNT, batchIntent, fee, outer, trade } from './batch-swap-intent';
import { forgetAppsWithoutBatch, runSigned, type SigningWallet } from '../src/lib/signer';

// A wallet app's swap where the ledger has Batch (docs/self-custody.md "Swaps and the platform
// fee"): the app is asked for the Batch first; when it cannot sign it — its adapter fails, or it
// answers with something that is not the Batch — the web asks the server for the same
// transactions one by one (POST /api/intents/{id}/sequence) and the app signs those, and the app
// is remembered for the session. Its user's own "reject" ends the swap. The real signer and the
// real lib/signer/external.ts run; stood in for: the server (fetch answers) and xrpl-connect's
// WalletManager, which throws exactly what its GemWalletAdapter throws for each answer of the
// GemWallet extension (the e2e test's e2e/support/fake-gemwallet.ts speaks the messages themselves).

const app = vi.hoisted(() => ({
  /** Each transaction the app was asked to sign. */
  asked: [] as Array<Record<string, unknown>>,
  sign: (_tx: Record<string, unknown>): { hash: string; tx_blob: string } => {
    throw new Error('set per test');
  },
}));

vi.mock('xrpl-connect', () => {
  class WalletManager {
    account = { address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh' };
    async connect() {
      return this.account;
    }
    async disconnect() {}
    async sign(tx: Record<string, unknown>) {
      app.asked.push(tx);
      return app.sign(tx);
    }
  }
  class Adapter {}
  return { WalletManager, GemWalletAdapter: Adapter, CrossmarkAdapter: Adapter, LedgerAdapter: Adapter };
});

/** xrpl-connect's WalletError, as its GemWalletAdapter throws it from `sign`. */
class WalletError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly originalError?: Error,
  ) {
    super(message);
  }
}
/** The extension answered `{ error }`: @gemwallet/api throws it, the adapter wraps it (SIGN_FAILED). */
const appError = (message: string) =>
  new WalletError('SIGN_FAILED', `Failed to sign transaction. ${message}`, new Error(message));
/** The extension answered neither a result nor an error: GemWallet's own "reject". */
const gemWalletReject = () => appError('Failed to sign transaction with GemWallet');

const PUBKEY = `ED${'5F'.repeat(32)}`;
// The server's sequence version: the same transactions, not inner ones, from the Batch's sequence.
const plain = (tx: Record<string, unknown>, sequence: number) => ({
  ...tx,
  Flags: undefined,
  SigningPubKey: undefined,
  Sequence: sequence,
  Fee: '10',
  LastLedgerSequence: 130,
});
const sequenceIntent: SigningIntent = {
  ...batchIntent,
  id: '0b7d3c1a-5e2f-4a6b-8c9d-1e2f3a4b5c6d',
  mode: 'sequence',
  txs: [plain(trade, 10), plain(fee, 11)],
  lastLedgerSequence: 130,
};
/** A signed copy as the ledger's binary format carries it (the signature is not checked here). */
const signed = (tx: Record<string, unknown>) =>
  encode({ ...tx, SigningPubKey: PUBKEY, TxnSignature: 'AB'.repeat(64) } as never);
const signsAll = (tx: Record<string, unknown>) => ({ hash: '', tx_blob: signed(tx) });

/** What the page sent to the server: path, body and Idempotency-Key. */
let sent: Array<{ path: string; body: unknown; key: string | null }>;
const SWAPPED = { status: 'success', hash: 'AA'.repeat(32) };

beforeEach(() => {
  sent = [];
  app.asked.length = 0;
  forgetAppsWithoutBatch();
  vi.stubGlobal('fetch', async (path: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    if (path === '/api/csrf-token') return Response.json({ token: 'csrf' });
    sent.push({
      path,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
      key: headers['idempotency-key'] ?? null,
    });
    if (path === '/api/swap') return Response.json({ status: 'sign', intent: batchIntent });
    if (path === `/api/intents/${batchIntent.id}/sequence`)
      return Response.json({ status: 'sign', intent: sequenceIntent });
    if (path.endsWith('/submit')) return Response.json(SWAPPED);
    return Response.json({ message: 'Not found' }, { status: 404 });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const gem: SigningWallet = { wallet_address: ACCOUNT, kind: 'external', wallet_app: 'gemwallet' };
const swap = (wallet = gem) =>
  runSigned(
    wallet,
    () =>
      fetch('/api/swap', { method: 'POST', headers: { 'idempotency-key': 'swap-key-1' } }).then((r) =>
        r.json(),
      ),
    'swap-key-1.signed',
  );

describe("a wallet app's Batch swap in the web's signer", () => {
  it('an app that signs it: the outer Batch only, posted once, nothing replaced', async () => {
    app.sign = signsAll;
    expect(await swap()).toEqual(SWAPPED);
    expect(app.asked).toEqual([outer]);
    expect(sent.map((s) => s.path)).toEqual(['/api/swap', `/api/intents/${batchIntent.id}/submit`]);
    expect(sent[1]).toMatchObject({ body: { blobs: [signed(outer)] }, key: 'swap-key-1.signed' });
  });

  it('an app that cannot sign a Batch: its sequence version is asked for and signed, and the app remembered', async () => {
    app.sign = (tx) => {
      if (tx.TransactionType === 'Batch') throw appError('Unsupported transaction type: Batch');
      return signsAll(tx);
    };
    expect(await swap()).toEqual(SWAPPED);
    // Asked for the Batch once, then for each transaction of the sequence version, in order.
    expect(app.asked).toEqual([outer, ...sequenceIntent.txs]);
    expect(sent).toEqual([
      { path: '/api/swap', body: undefined, key: 'swap-key-1' },
      {
        path: `/api/intents/${batchIntent.id}/sequence`,
        body: { reason: 'app-cannot-sign-batch' },
        key: 'swap-key-1.signed.sequence',
      },
      {
        path: `/api/intents/${sequenceIntent.id}/submit`,
        body: { blobs: sequenceIntent.txs.map((tx) => signed(tx)) },
        key: 'swap-key-1.signed',
      },
    ]);

    // The next swap in this session: the app is not asked for a Batch again.
    app.asked.length = 0;
    sent = [];
    expect(await swap()).toEqual(SWAPPED);
    expect(app.asked).toEqual(sequenceIntent.txs);
    expect(sent.map((s) => s.path)).toEqual([
      '/api/swap',
      `/api/intents/${batchIntent.id}/sequence`,
      `/api/intents/${sequenceIntent.id}/submit`,
    ]);
    // Another app of the same user is still asked for the Batch.
    app.asked.length = 0;
    app.sign = signsAll;
    await swap({ ...gem, wallet_app: 'crossmark' });
    expect(app.asked).toEqual([outer]);
  });

  it('an app that answers something other than the Batch: the sequence version too', async () => {
    // Signed the trade alone instead of the Batch carrying it.
    app.sign = (tx) => signsAll(tx.TransactionType === 'Batch' ? plain(trade, 10) : tx);
    expect(await swap()).toEqual(SWAPPED);
    expect(sent.map((s) => s.path)).toEqual([
      '/api/swap',
      `/api/intents/${batchIntent.id}/sequence`,
      `/api/intents/${sequenceIntent.id}/submit`,
    ]);
  });

  it("the user's own rejection ends the swap: nothing replaced, nothing sent", async () => {
    app.sign = () => {
      throw gemWalletReject();
    };
    await expect(swap()).rejects.toThrow('The request was rejected in the wallet app.');
    expect(app.asked).toEqual([outer]);
    expect(sent.map((s) => s.path)).toEqual(['/api/swap']);
    // xrpl-connect's own SIGN_REJECTED (Crossmark, Xaman...) reads the same.
    app.sign = () => {
      throw new WalletError('SIGN_REJECTED', 'Transaction signing was rejected by the user.');
    };
    await expect(swap({ ...gem, wallet_app: 'crossmark' })).rejects.toThrow(
      'The request was rejected in the wallet app.',
    );
    expect(sent.map((s) => s.path)).toEqual(['/api/swap', '/api/swap']);
    // Not remembered: the next swap asks the app for the Batch again.
    app.asked.length = 0;
    app.sign = signsAll;
    await swap();
    expect(app.asked).toEqual([outer]);
  });
});
