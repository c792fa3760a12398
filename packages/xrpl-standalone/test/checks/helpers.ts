// Check test plumbing: the Check's ledger index worked out from rippled's keylet::check (not from
// the engine's own function), the Checks an account's directory lists, and a ledger whose closes
// are one second apart (escrow helpers), so expirations land on known close times.
import { createHash } from 'node:crypto';
import { decodeAccountID } from 'ripple-address-codec';
import type { Wallet } from 'xrpl';
import { request, type Dex } from '../dex/helpers';

/** SHA-512Half of namespace 'C' (0x0043), the writer's AccountID and the sequence (big-endian). */
export function checkIndex(writer: string, sequence: number): string {
  const seq = Buffer.alloc(4);
  seq.writeUInt32BE(sequence);
  const data = Buffer.concat([Buffer.from([0x00, 0x43]), Buffer.from(decodeAccountID(writer)), seq]);
  return createHash('sha512').update(data).digest('hex').slice(0, 64).toUpperCase();
}

export async function checksOf(dex: Dex, address: string): Promise<Array<Record<string, unknown>>> {
  const r = await request<{ account_objects: Array<Record<string, unknown>> }>(dex, {
    command: 'account_objects',
    account: address,
    type: 'check',
    ledger_index: 'validated',
  });
  return r.account_objects;
}

export async function ledgerEntry(
  dex: Dex,
  selector: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const r = await request<{ node: Record<string, unknown> }>(dex, {
    command: 'ledger_entry',
    ledger_index: 'validated',
    ...selector,
  });
  return r.node;
}

export const checkCreate = (dest: Wallet, sendMax: unknown, extra: Record<string, unknown> = {}) => ({
  TransactionType: 'CheckCreate',
  Destination: dest.address,
  SendMax: sendMax,
  ...extra,
});

export const cashExact = (checkId: string, amount: unknown) => ({
  TransactionType: 'CheckCash',
  CheckID: checkId,
  Amount: amount,
});

export const cashAtLeast = (checkId: string, deliverMin: unknown) => ({
  TransactionType: 'CheckCash',
  CheckID: checkId,
  DeliverMin: deliverMin,
});

export const cancel = (checkId: string) => ({ TransactionType: 'CheckCancel', CheckID: checkId });

type Node = Record<string, { LedgerEntryType?: string; LedgerIndex?: string } & Record<string, unknown>>;

/** The affected node of a given kind and entry type in a transaction's metadata. */
export function affected(
  meta: Record<string, unknown> | undefined,
  kind: 'CreatedNode' | 'ModifiedNode' | 'DeletedNode',
  type: string,
  index?: string,
): Record<string, unknown> | undefined {
  const nodes = (meta?.AffectedNodes ?? []) as Node[];
  const found = nodes.find(
    (n) => n[kind]?.LedgerEntryType === type && (index === undefined || n[kind]?.LedgerIndex === index),
  );
  return found?.[kind];
}
