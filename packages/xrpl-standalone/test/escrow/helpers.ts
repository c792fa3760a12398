// Escrow test plumbing: a ledger whose clock runs far behind the wall clock, so every manual close
// is exactly one second after its parent (close times are then known in advance), and
// PREIMAGE-SHA-256 conditions built byte by byte from the crypto-conditions DER layout.
import { createHash } from 'node:crypto';
import { hashes, Wallet } from 'xrpl';
import { expectResult, genesis, request, startDex, type Dex } from '../dex/helpers';

/** Ten years behind: the clock never catches up with the ledger, so each close is parent + 1 s. */
const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

export async function startEscrowLedger(amendments?: readonly string[]): Promise<Dex> {
  return startDex(amendments, { clockOffsetMs: TEN_YEARS_MS });
}

/** The validated ledger's close time: the parent close time of the transactions submitted next. */
export async function closeTime(dex: Dex): Promise<number> {
  const r = await dex.client.request({ command: 'ledger', ledger_index: 'validated' });
  return r.result.ledger.close_time;
}

/** Close `n` ledgers (each one second later on this clock). */
export function closeLedgers(dex: Dex, n: number): void {
  for (let i = 0; i < n; i += 1) dex.ledger.closeLedger();
}

/** Condition [0]{ [0] sha256(preimage), [1] length } and fulfillment [0]{ [0] preimage }, as hex. */
export function preimageCondition(preimage: Buffer): { condition: string; fulfillment: string } {
  if (preimage.length > 127) throw new Error('test preimages stay below 128 bytes (short DER lengths)');
  const fingerprint = createHash('sha256').update(preimage).digest();
  const cost = preimage.length === 0 ? Buffer.from([0]) : Buffer.from([preimage.length]);
  const condition = Buffer.concat([
    Buffer.from([0xa0, 2 + 32 + 2 + cost.length, 0x80, 32]),
    fingerprint,
    Buffer.from([0x81, cost.length]),
    cost,
  ]);
  const fulfillment = Buffer.concat([
    Buffer.from([0xa0, 2 + preimage.length, 0x80, preimage.length]),
    preimage,
  ]);
  return {
    condition: condition.toString('hex').toUpperCase(),
    fulfillment: fulfillment.toString('hex').toUpperCase(),
  };
}

/** Close ledgers until the validated close time is strictly after `mark` (rippled's "after"). */
export async function passTime(dex: Dex, mark: number): Promise<void> {
  while ((await closeTime(dex)) <= mark) dex.ledger.closeLedger();
}

/**
 * xrpl.js's own state-tree hash over every entry of the validated ledger (ledger_data, paged),
 * against the ledger's account_hash: the escrow objects are serialized as the codec does.
 */
export async function stateHashes(dex: Dex): Promise<{ computed: string; ledger: string }> {
  const header = await dex.client.request({ command: 'ledger', ledger_index: 'validated' });
  const ledgerIndex = header.result.ledger_index;
  const entries: unknown[] = [];
  let marker: unknown;
  do {
    const page = await dex.client.request({
      command: 'ledger_data',
      ledger_index: ledgerIndex,
      limit: 2048,
      ...(marker === undefined ? {} : { marker }),
    });
    entries.push(...page.result.state);
    marker = page.result.marker;
  } while (marker !== undefined);
  return {
    computed: hashes.hashStateTree(entries as never),
    ledger: header.result.ledger.account_hash,
  };
}

export const finishTx = (owner: Wallet, seq: number) => ({
  TransactionType: 'EscrowFinish',
  Owner: owner.address,
  OfferSequence: seq,
});

export const cancelTx = (owner: Wallet, seq: number) => ({
  TransactionType: 'EscrowCancel',
  Owner: owner.address,
  OfferSequence: seq,
});

export interface AccountRootJson {
  Balance: string;
  Flags: number;
  OwnerCount: number;
  Sequence: number;
}

export async function accountRoot(dex: Dex, address: string): Promise<AccountRootJson> {
  const r = await dex.client.request({
    command: 'account_info',
    account: address,
    ledger_index: 'validated',
  });
  return r.result.account_data as unknown as AccountRootJson;
}

/** The escrows listed in an account's directory (owned, to it, or of its issues). */
export async function escrowObjects(dex: Dex, address: string): Promise<Array<Record<string, unknown>>> {
  const r = await request<{ account_objects: Array<Record<string, unknown>> }>(dex, {
    command: 'account_objects',
    account: address,
    type: 'escrow',
    ledger_index: 'validated',
  });
  return r.account_objects;
}

/** An account funded with an exact number of drops (not whole XRP). */
export async function fundedDrops(dex: Dex, drops: string): Promise<Wallet> {
  const w = Wallet.generate();
  await expectResult(dex, genesis, { TransactionType: 'Payment', Destination: w.address, Amount: drops });
  return w;
}

/** The holder's trust lines to one issuer. */
export async function linesTo(
  dex: Dex,
  holder: Wallet,
  iss: Wallet,
): Promise<Array<Record<string, unknown>>> {
  const r = await dex.client.request({
    command: 'account_lines',
    account: holder.address,
    peer: iss.address,
  });
  return r.result.lines as unknown as Array<Record<string, unknown>>;
}
