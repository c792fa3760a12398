import type { Client, SubmittableTransaction, TxResponse, Wallet } from 'xrpl';

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
  for (;;) {
    try {
      const r = await client.request({ command: 'tx', transaction: hash });
      if (r.result.validated) return r.result;
    } catch {
      // txnNotFound until it is in a ledger
    }
    const validated = await client.request({ command: 'ledger', ledger_index: 'validated' });
    if (Number(validated.result.ledger_index) > prepared.LastLedgerSequence!)
      throw new Error(`${tx.TransactionType} ${hash} expired unvalidated`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
