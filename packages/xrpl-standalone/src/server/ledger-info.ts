// Ledger-header and fee fields shared by server_info, the ledger stream and the ledger method.
import type { JsonObject, LedgerHeader, LedgerNodeApi, LedgerView } from '../core/contract';
import { closeTimeHuman, closeTimeIso, type ApiVersion } from './tx-format';

/**
 * The contiguous range of closed ledgers this node holds. LedgerNode reports it directly; for any
 * other LedgerNodeApi the oldest one is found by binary search (history is contiguous up to the last).
 */
export function ledgerRange(node: LedgerNodeApi): { first: number; last: number } {
  const withRange = node as LedgerNodeApi & { completeLedgers?: () => { first: number; last: number } };
  if (typeof withRange.completeLedgers === 'function') return withRange.completeLedgers();
  const last = node.validated().header.ledger_index;
  let lo = 1;
  let hi = last;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (node.ledger({ ledger_index: mid })) hi = mid;
    else lo = mid + 1;
  }
  return { first: lo, last };
}

/** The range of ledgers this node can serve ("first-last"), as rippled's complete_ledgers. */
export function completeLedgers(node: LedgerNodeApi): string {
  const { first, last } = ledgerRange(node);
  return first === last ? String(last) : `${first}-${last}`;
}

/** Fields of the ledger stream message and of subscribe's reply for `ledger`. */
export function ledgerStreamFields(node: LedgerNodeApi, header: LedgerHeader): JsonObject {
  const { baseFee, reserveBase, reserveIncrement, networkId } = node.config;
  const out = {
    fee_base: Number(baseFee),
    fee_ref: Number(baseFee),
    ledger_hash: header.ledger_hash,
    ledger_index: header.ledger_index,
    ledger_time: header.close_time,
    reserve_base: Number(reserveBase),
    reserve_inc: Number(reserveIncrement),
    validated_ledgers: completeLedgers(node),
  } as JsonObject;
  // rippled always reports its network id (0 when none is configured).
  out.network_id = networkId ?? 0;
  return out;
}

/** LedgerToJson's header part (fillJson). */
export function ledgerHeaderJson(view: LedgerView, apiVersion: ApiVersion): JsonObject {
  const h = view.header;
  const out: JsonObject = {
    parent_hash: h.parent_hash,
    ledger_index: apiVersion > 1 ? h.ledger_index : String(h.ledger_index),
  };
  if (!view.closed) {
    out.closed = false;
    return out;
  }
  Object.assign(out, {
    closed: true,
    ledger_hash: h.ledger_hash,
    transaction_hash: h.transaction_hash,
    account_hash: h.account_hash,
    total_coins: h.total_coins,
    close_flags: h.close_flags,
    parent_close_time: h.parent_close_time,
    close_time: h.close_time,
    close_time_resolution: h.close_time_resolution,
    close_time_human: closeTimeHuman(h.close_time),
    close_time_iso: closeTimeIso(h.close_time),
  });
  return out;
}

/** Drops as an XRP JSON number, for server_info's *_xrp fields (display only, never arithmetic). */
export function dropsToXrpNumber(drops: bigint): number {
  const whole = drops / 1_000_000n;
  const frac = drops % 1_000_000n;
  return Number(`${whole}.${frac.toString().padStart(6, '0')}`);
}
