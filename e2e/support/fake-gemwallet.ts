import type { BrowserContext } from 'playwright-core';
import type { Wallet } from 'xrpl';

// A stand-in for the GemWallet browser extension, for tests only: it speaks exactly the messages
// GemWallet's content script answers (GemWallet/gemwallet-extension, content/index.ts) and that
// xrpl-connect's GemWalletAdapter sends through @gemwallet/api: window.postMessage requests tagged
// { source: 'GEM_WALLET_MSG_REQUEST', messageId, app: 'gem-wallet', type, payload }, answered with
// { source: 'GEM_WALLET_MSG_RESPONSE', messagedId (GemWallet's spelling), result | error }
// — REQUEST_IS_INSTALLED/V3 with a flat `isInstalled`, REQUEST_GET_PUBLIC_KEY/V3 with
// `result: { address, publicKey }`, REQUEST_SIGN_TRANSACTION/V3 (payload `{ transaction }`) with
// `result: { signature }` (the signed blob). Where the extension asks its user to approve, this
// one approves at once; the key lives in the test process (the extension's background page).
//
// signTransaction takes any transaction JSON, a Batch included (the outer with its RawTransactions,
// signed as a whole: xrpl.js's Wallet.sign). Two switches stand in for what a real extension may
// answer instead: `refuseBatch` — an extension that cannot sign a Batch answers the request with
// `error` (serialized as the extension does: `{ name, message }`), which @gemwallet/api throws and
// xrpl-connect wraps as SIGN_FAILED; `reject` — its user says no: an answer with neither `result`
// nor `error`, which @gemwallet/api reads as `type: 'reject'`.

export interface FakeGemWallet {
  /** Request types in the order the page sent them. */
  readonly requests: string[];
  /** The transactions it was asked to sign, as sent. */
  readonly signed: Array<Record<string, unknown>>;
  /** The transactions it was asked to sign and did not (refused or rejected), as sent. */
  readonly refused: Array<Record<string, unknown>>;
  /** Answer every Batch with an error, as an extension that cannot sign one (switchable). */
  refuseBatch: boolean;
  /** Its user rejects every signing request (switchable). */
  reject: boolean;
}

export type FakeGemWalletOptions = Partial<Pick<FakeGemWallet, 'refuseBatch' | 'reject'>>;

/** The error an extension that cannot sign a Batch answers with (its words, serialized). */
const BATCH_REFUSAL = 'Unsupported transaction type: Batch';

export async function installFakeGemWallet(
  context: BrowserContext,
  wallet: Wallet,
  options: FakeGemWalletOptions = {},
): Promise<FakeGemWallet> {
  const state: FakeGemWallet = {
    requests: [],
    signed: [],
    refused: [],
    refuseBatch: options.refuseBatch ?? false,
    reject: options.reject ?? false,
  };
  await context.exposeBinding('__fakeGemWallet', (_source, type: string, payload: unknown) => {
    state.requests.push(type);
    if (type === 'REQUEST_GET_PUBLIC_KEY/V3')
      return { result: { address: wallet.classicAddress, publicKey: wallet.publicKey } };
    if (type === 'REQUEST_SIGN_TRANSACTION/V3') {
      const tx = (payload as { transaction: Record<string, unknown> }).transaction;
      if (state.reject) {
        state.refused.push(tx);
        return {};
      }
      if (state.refuseBatch && tx.TransactionType === 'Batch') {
        state.refused.push(tx);
        return { error: { name: 'Error', message: BATCH_REFUSAL } };
      }
      state.signed.push(tx);
      return { result: { signature: wallet.sign(tx as never).tx_blob } };
    }
    return { error: { name: 'Error', message: `The test wallet does not answer ${type}` } };
  });
  await context.addInitScript(() => {
    type Request = { source?: string; messageId?: number; type?: string; payload?: unknown };
    const answer = (window as unknown as { __fakeGemWallet: (t: string, p: unknown) => Promise<object> })
      .__fakeGemWallet;
    window.addEventListener('message', (event: MessageEvent<Request>) => {
      // As the content script: only this page's own requests.
      if (event.origin !== window.origin || event.source !== window) return;
      const data = event.data;
      if (!data || data.source !== 'GEM_WALLET_MSG_REQUEST' || !data.type) return;
      const reply = (body: object) =>
        window.postMessage(
          { source: 'GEM_WALLET_MSG_RESPONSE', messagedId: data.messageId, ...body },
          window.location.origin,
        );
      if (data.type === 'REQUEST_IS_INSTALLED/V3') {
        void answer(data.type, undefined);
        reply({ isInstalled: true });
        return;
      }
      void answer(data.type, data.payload).then(reply);
    });
  });
  return state;
}
