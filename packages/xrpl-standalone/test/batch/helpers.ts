// Batch test plumbing: inner transactions and outer Batches built as JSON, signed with the keys
// directly (xrpl.js's client-side validation would refuse the malformed ones whose server-side
// rejection is tested), submitted as blobs; sequences, balances and transactions read back.
import { encode, encodeForSigning } from 'ripple-binary-codec';
import { sign } from 'ripple-keypairs';
import { hashes, type Wallet } from 'xrpl';
import { funded, request, startDex, type Dex } from '../dex/helpers';

export const TF_INNER_BATCH_TXN = 0x40000000;

/** rippled's batch modes (TxFlags.h). */
export const MODE = {
  allOrNothing: 0x00010000,
  onlyOne: 0x00020000,
  untilFailure: 0x00040000,
  independent: 0x00080000,
} as const;

export type Json = Record<string, unknown>;

/** An inner XRP payment: the inner flag, no fee, no key, an explicit Sequence (or TicketSequence). */
export function innerPayment(from: Wallet, to: string, drops: bigint, seq: number, extra: Json = {}): Json {
  return {
    TransactionType: 'Payment',
    Flags: TF_INNER_BATCH_TXN,
    Account: from.address,
    Destination: to,
    Amount: drops.toString(),
    Sequence: seq,
    Fee: '0',
    SigningPubKey: '',
    ...extra,
  };
}

/** An outer Batch of `inners` (each wrapped as RawTransaction), signed by nobody yet. */
export function batchOf(
  outer: Wallet,
  seq: number,
  mode: number,
  inners: Json[],
  fee: bigint,
  extra: Json = {},
): Json {
  return {
    TransactionType: 'Batch',
    Account: outer.address,
    Flags: mode,
    Sequence: seq,
    Fee: fee.toString(),
    SigningPubKey: outer.publicKey,
    RawTransactions: inners.map((t) => ({ RawTransaction: t })),
    ...extra,
  };
}

/** Single-signs `tx` with `wallet` (BatchSigners are not signing fields: add them before or after). */
export function signedBlob(wallet: Wallet, tx: Json): { blob: string; hash: string } {
  const full: Json = { ...tx, SigningPubKey: wallet.publicKey };
  full.TxnSignature = sign(encodeForSigning(full as never), wallet.privateKey);
  const blob = encode(full as never);
  return { blob, hash: hashes.hashSignedTx(blob) };
}

export interface BatchLedger {
  dex: Dex;
  alice: Wallet;
  bob: Wallet;
  carol: Wallet;
}

/** A ledger with the default (mainnet) amendments and three accounts of 10,000 XRP each. */
export async function startBatchLedger(): Promise<BatchLedger> {
  const dex = await startDex();
  return {
    dex,
    alice: await funded(dex, 10_000),
    bob: await funded(dex, 10_000),
    carol: await funded(dex, 10_000),
  };
}

/** Signs, submits and closes the ledger: the engine result (or "error: exception") and the hash. */
export async function submitSigned(
  dex: Dex,
  signer: Wallet,
  tx: Json,
): Promise<{ result: string; hash: string }> {
  const { blob, hash } = signedBlob(signer, tx);
  const reply = await submitBlob(dex, blob);
  dex.ledger.closeLedger();
  return { result: reply.engine_result ?? `${reply.error}: ${reply.error_exception}`, hash };
}

export interface SubmitReply {
  engine_result?: string;
  error?: string;
  error_exception?: string;
}

/** submit of a blob: the engine result, or the RPC error rippled answers instead. */
export async function submitBlob(dex: Dex, blob: string): Promise<SubmitReply> {
  try {
    const r = await dex.client.request({ command: 'submit', tx_blob: blob });
    return { engine_result: r.result.engine_result };
  } catch (err) {
    const data = (err as { data?: SubmitReply }).data;
    if (!data) throw err;
    return { error: data.error, error_exception: data.error_exception };
  }
}

export async function sequenceOf(dex: Dex, address: string): Promise<number> {
  const r = await dex.client.request({ command: 'account_info', account: address, ledger_index: 'current' });
  return r.result.account_data.Sequence;
}

/** The hash of an inner transaction (its own transaction ID; xrpl.js hashes inner ones unsigned). */
export function innerHash(inner: Json): string {
  return hashes.hashSignedTx(inner as never);
}

export interface TxLookup {
  found: boolean;
  result?: string;
  meta?: Json;
  txJson?: Json;
  ledgerIndex?: number;
}

/** `tx` by hash: the validated transaction's result, metadata and JSON, or not found. */
export async function lookup(dex: Dex, hash: string): Promise<TxLookup> {
  try {
    const r = await request<{ meta: Json; tx_json: Json; ledger_index: number }>(dex, {
      command: 'tx',
      transaction: hash,
    });
    return {
      found: true,
      result: String(r.meta.TransactionResult),
      meta: r.meta,
      txJson: r.tx_json,
      ledgerIndex: r.ledger_index,
    };
  } catch (err) {
    if ((err as { data?: { error?: string } }).data?.error === 'txnNotFound') return { found: false };
    throw err;
  }
}

/** The validated ledger's transactions in TransactionIndex order: type, hash, result, parent. */
export async function ledgerTransactions(
  dex: Dex,
): Promise<Array<{ type: string; hash: string; result: string; index: number; parent?: string }>> {
  const r = await request<{ ledger: { transactions: Array<{ tx_json: Json; meta: Json; hash: string }> } }>(
    dex,
    {
      command: 'ledger',
      ledger_index: 'validated',
      transactions: true,
      expand: true,
    },
  );
  return r.ledger.transactions
    .map((t) => ({
      type: String(t.tx_json.TransactionType),
      hash: t.hash,
      result: String(t.meta.TransactionResult),
      index: Number(t.meta.TransactionIndex),
      parent: t.meta.ParentBatchID as string | undefined,
    }))
    .sort((a, b) => a.index - b.index);
}
