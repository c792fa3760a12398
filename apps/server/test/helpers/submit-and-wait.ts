import { expect } from 'vitest';
import type { Client, SubmittableTransaction, TxResponse, Wallet } from 'xrpl';
import { until } from './wait';

// The one set of helpers tests use to put a transaction on the ledger with xrpl.js directly (not
// through the platform's submission service).
//
// xrpl.js's submitAndWait looks for the result once a second, whatever the ledger's close interval;
// the test ledgers close every 100–200 ms. This does the same (autofill, sign, submit, wait for the
// validated result or the LastLedgerSequence to pass) looking every 25 ms.

export async function submitAndWait(
  client: Client,
  tx: SubmittableTransaction,
  wallet: Wallet,
): Promise<TxResponse['result']> {
  const prepared = await client.autofill(tx);
  const { tx_blob, hash } = wallet.sign(prepared);
  const submitted = await client.request({ command: 'submit', tx_blob });
  const prelim = submitted.result.engine_result;
  if (!/^(tes|tec|ter)/.test(prelim)) throw new Error(`${tx.TransactionType} rejected: ${prelim}`);
  return until(
    `${tx.TransactionType} ${hash} validated`,
    async () => {
      try {
        const r = await client.request({ command: 'tx', transaction: hash });
        if (r.result.validated) return r.result;
      } catch {
        // txnNotFound until it is in a ledger
      }
      const validated = await client.request({ command: 'ledger', ledger_index: 'validated' });
      if (Number(validated.result.ledger_index) > prepared.LastLedgerSequence!)
        throw new Error(`${tx.TransactionType} ${hash} expired unvalidated`);
      return undefined;
    },
    // The LastLedgerSequence ends the wait long before this on a ledger that closes.
    { timeoutMs: 120_000, everyMs: 25 },
  );
}

/** `submitAndWait` that expects the validated result to be tesSUCCESS. */
export async function submitOk(
  client: Client,
  wallet: Wallet,
  tx: SubmittableTransaction,
): Promise<TxResponse['result']> {
  const r = await submitAndWait(client, tx, wallet);
  expect((r.meta as { TransactionResult?: string } | undefined)?.TransactionResult).toBe('tesSUCCESS');
  return r;
}

export async function waitValidated(
  client: Client,
  hash: string,
): Promise<{ ledger: number; result: string }> {
  return until(
    `${hash} validated`,
    async () => {
      try {
        const r = await client.request({ command: 'tx', transaction: hash });
        if (r.result.validated) {
          const meta = r.result.meta as { TransactionResult: string };
          return { ledger: r.result.ledger_index!, result: meta.TransactionResult };
        }
      } catch {
        // not in a ledger yet
      }
      return undefined;
    },
    { timeoutMs: 120_000, everyMs: 20 },
  );
}

/** Signs and submits into the open ledger (not waiting): the hash. */
export async function submitNow(client: Client, wallet: Wallet, tx: SubmittableTransaction): Promise<string> {
  const prepared = await client.autofill(tx);
  const { tx_blob, hash } = wallet.sign(prepared);
  const r = await client.request({ command: 'submit', tx_blob });
  if (!/^(tes|tec|ter)/.test(r.result.engine_result))
    throw new Error(`${tx.TransactionType}: ${r.result.engine_result}`);
  return hash;
}

/**
 * Waits until `n` more ledgers are validated after now: 'a few more closes' counted in ledgers, not
 * in seconds (a loaded machine closes fewer ledgers in a given time than an idle one).
 */
export async function ledgersPass(client: Client, n: number, timeoutMs = 60_000): Promise<void> {
  const index = async () =>
    Number((await client.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger_index);
  const from = await index();
  await until(`${n} more validated ledgers`, async () => (await index()) >= from + n, {
    timeoutMs,
    everyMs: 100,
  });
}
