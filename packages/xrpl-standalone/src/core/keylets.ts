// Ledger object IDs exactly as rippled's Indexes.cpp computes them: SHA-512Half over a 16-bit
// namespace key followed by the object's identifying fields.
import { accountIdHex } from './account-id';
import { currencyToHex } from './amount/currency';
import { hex, sha512HalfHex, u16, u32, u64 } from './hash';

export const LEDGER_NAMESPACE = {
  account: 0x61, // 'a'
  dirNode: 0x64, // 'd'
  trustLine: 0x72, // 'r'
  offer: 0x6f, // 'o'
  ownerDir: 0x4f, // 'O'
  bookDir: 0x42, // 'B'
  skipList: 0x73, // 's'
  escrow: 0x75, // 'u'
  amendments: 0x66, // 'f'
  feeSettings: 0x65, // 'e'
  ticket: 0x54, // 'T'
  signerList: 0x53, // 'S'
  paychan: 0x78, // 'x'
  check: 0x43, // 'C'
  depositPreauth: 0x70, // 'p'
  amm: 0x41, // 'A'
  delegate: 0x45, // 'E'
} as const;

function acct(address: string): Buffer {
  return hex(accountIdHex(address));
}

function cur(code: string): Buffer {
  const h = currencyToHex(code);
  if (h === undefined) throw new TypeError(`bad currency ${code}`);
  return hex(h);
}

const accountRootCache = new Map<string, string>();

export function accountRootKey(address: string): string {
  let key = accountRootCache.get(address);
  if (key === undefined) {
    key = sha512HalfHex(u16(LEDGER_NAMESPACE.account), acct(address));
    if (accountRootCache.size > 200_000) accountRootCache.clear();
    accountRootCache.set(address, key);
  }
  return key;
}

export function ownerDirKey(address: string): string {
  return sha512HalfHex(u16(LEDGER_NAMESPACE.ownerDir), acct(address));
}

/** Page `page` of the directory rooted at `rootIndex` (page 0 is the root itself). */
export function dirPageKey(rootIndex: string, page: bigint): string {
  if (page === 0n) return rootIndex;
  return sha512HalfHex(u16(LEDGER_NAMESPACE.dirNode), hex(rootIndex), u64(page));
}

// Trust-line keys are looked up many times per payment or crossing (each a base58 decode of both
// accounts and a SHA-512): remember recent ones.
const trustLineKeys = new Map<string, string>();

export function trustLineKey(a: string, b: string, currency: string): string {
  const memo = `${a}/${b}/${currency}`;
  let key = trustLineKeys.get(memo);
  if (key === undefined) {
    key = computeTrustLineKey(a, b, currency);
    if (trustLineKeys.size >= 50_000) trustLineKeys.clear();
    trustLineKeys.set(memo, key);
  }
  return key;
}

function computeTrustLineKey(a: string, b: string, currency: string): string {
  const x = accountIdHex(a);
  const y = accountIdHex(b);
  const [lo, hi] = x < y ? [x, y] : [y, x];
  return sha512HalfHex(u16(LEDGER_NAMESPACE.trustLine), hex(lo), hex(hi), cur(currency));
}

export function offerKey(address: string, sequence: number): string {
  return sha512HalfHex(u16(LEDGER_NAMESPACE.offer), acct(address), u32(sequence));
}

export function ticketKey(address: string, ticketSequence: number): string {
  return sha512HalfHex(u16(LEDGER_NAMESPACE.ticket), acct(address), u32(ticketSequence));
}

export function checkKey(address: string, sequence: number): string {
  return sha512HalfHex(u16(LEDGER_NAMESPACE.check), acct(address), u32(sequence));
}

export function escrowKey(address: string, sequence: number): string {
  return sha512HalfHex(u16(LEDGER_NAMESPACE.escrow), acct(address), u32(sequence));
}

export function signerListKey(address: string): string {
  return sha512HalfHex(u16(LEDGER_NAMESPACE.signerList), acct(address), u32(0));
}

export function depositPreauthKey(owner: string, authorized: string): string {
  return sha512HalfHex(u16(LEDGER_NAMESPACE.depositPreauth), acct(owner), acct(authorized));
}

/** rippled keylet::delegate(account, authorized): the permissions `account` granted `authorized`. */
export function delegateKey(account: string, authorized: string): string {
  return sha512HalfHex(u16(LEDGER_NAMESPACE.delegate), acct(account), acct(authorized));
}

let feeSettingsKeyMemo: string | undefined;

export function feeSettingsKey(): string {
  feeSettingsKeyMemo ??= sha512HalfHex(u16(LEDGER_NAMESPACE.feeSettings));
  return feeSettingsKeyMemo;
}

let amendmentsKeyMemo: string | undefined;

export function amendmentsKey(): string {
  amendmentsKeyMemo ??= sha512HalfHex(u16(LEDGER_NAMESPACE.amendments));
  return amendmentsKeyMemo;
}

/** The "short" skip list (last 256 ledger hashes). */
let skipListKeyMemo: string | undefined;

export function skipListKey(): string {
  skipListKeyMemo ??= sha512HalfHex(u16(LEDGER_NAMESPACE.skipList));
  return skipListKeyMemo;
}

/** An issue in the sense of rippled's Issue: XRP is currency 'XRP' with no issuer. */
export interface IssueRef {
  currency: string;
  issuer?: string;
}

function issueAccount(i: IssueRef): Buffer {
  return i.issuer === undefined || currencyToHex(i.currency) === '0'.repeat(40)
    ? Buffer.alloc(20)
    : acct(i.issuer);
}

/**
 * Base of the order-book directories for offers that pay `takerPays` and get `takerGets`
 * (rippled getBookBase: the low 64 bits, the quality, are zero).
 */
export function bookBaseKey(takerPays: IssueRef, takerGets: IssueRef): string {
  const h = sha512HalfHex(
    u16(LEDGER_NAMESPACE.bookDir),
    cur(takerPays.currency),
    cur(takerGets.currency),
    issueAccount(takerPays),
    issueAccount(takerGets),
  );
  return h.slice(0, 48) + '0'.repeat(16);
}

/** The book directory for a given 64-bit quality (rippled keylet::quality). */
export function bookQualityKey(bookBase: string, quality: bigint): string {
  return bookBase.slice(0, 48) + quality.toString(16).toUpperCase().padStart(16, '0');
}

/** The quality stored in the low 64 bits of a book directory index. */
export function qualityFromKey(index: string): bigint {
  return BigInt(`0x${index.slice(48)}`);
}

/** rippled keylet::amm(issue1, issue2): issues ordered by (currency, account). */
export function ammKey(a: IssueRef, b: IssueRef): string {
  const ka = Buffer.concat([cur(a.currency), issueAccount(a)]).toString('hex');
  const kb = Buffer.concat([cur(b.currency), issueAccount(b)]).toString('hex');
  const [min, max] = ka <= kb ? [a, b] : [b, a];
  return sha512HalfHex(
    u16(LEDGER_NAMESPACE.amm),
    issueAccount(min),
    cur(min.currency),
    issueAccount(max),
    cur(max.currency),
  );
}
