// Account-root helpers shared by transactors: reserves, owner counts, balances.
import type { CoreConfig, LedgerEntry } from './contract';
import { accountRootKey } from './keylets';
import type { ApplyView, StateReader } from './state/apply-view';

export function accountReserve(config: CoreConfig, ownerCount: number): bigint {
  return config.reserveBase + BigInt(ownerCount) * config.reserveIncrement;
}

export function readAccount(view: StateReader, address: string): LedgerEntry | undefined {
  return view.read(accountRootKey(address));
}

export function xrpBalance(acct: LedgerEntry): bigint {
  return BigInt(acct.Balance as string);
}

export function ownerCount(acct: LedgerEntry): number {
  return Number(acct.OwnerCount ?? 0);
}

/** rippled adjustOwnerCount: never below zero, never wraps. */
export function adjustOwnerCount(view: ApplyView, address: string, delta: number): void {
  const acct = view.peek(accountRootKey(address));
  if (!acct) throw new Error(`adjustOwnerCount: no account ${address}`);
  const next = Math.max(0, ownerCount(acct) + delta);
  acct.OwnerCount = next;
  view.update(acct);
}

/** XRP the account may spend: balance minus reserve (rippled xrpLiquid). */
export function xrpLiquid(
  view: StateReader,
  address: string,
  ownerCountAdj: number,
  config: CoreConfig,
): bigint {
  const acct = readAccount(view, address);
  if (!acct) return 0n;
  const reserve = accountReserve(config, Math.max(0, ownerCount(acct) + ownerCountAdj));
  const liquid = xrpBalance(acct) - reserve;
  return liquid > 0n ? liquid : 0n;
}

export function newAccountRoot(address: string, balance: bigint, sequence: number): LedgerEntry {
  return {
    LedgerEntryType: 'AccountRoot',
    Account: address,
    Balance: balance.toString(),
    Flags: 0,
    OwnerCount: 0,
    PreviousTxnID: '0'.repeat(64),
    PreviousTxnLgrSeq: 0,
    Sequence: sequence,
    index: accountRootKey(address),
  };
}
