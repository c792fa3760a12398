import { RippledError, type Client } from 'xrpl';
import { Decimal, rippleTime, type EscrowView, type LedgerAmount } from '@ledgerpad/shared';

// Escrows as the validated ledger holds them (XLS-85 token escrow, docs/vesting.md). A token escrow
// sits in its owner's directory and in the issuer's (IssuerNode), so one `account_objects` of the
// issuer lists every holder's escrows of the token, made through Ledgerpad or not.

/** Pages of escrow objects read (400 each). */
const MAX_PAGES = 10;

export interface LedgerEscrow {
  index: string;
  owner: string;
  destination: string;
  currency: string;
  issuer: string;
  amount: string;
  /** Ripple time, seconds; null when absent. */
  finishAfter: number | null;
  cancelAfter: number | null;
  /** The crypto-condition (hex), when the escrow has one: it can then be finished at any time. */
  condition: string | null;
  previousTxnId: string;
}

interface RawEscrow {
  index: string;
  Account: string;
  Destination: string;
  Amount: LedgerAmount;
  FinishAfter?: number;
  CancelAfter?: number;
  Condition?: string;
  PreviousTxnID: string;
}

const notFound = (err: unknown) =>
  err instanceof RippledError && (err.data as { error?: string } | undefined)?.error === 'actNotFound';

/** The token escrows in `account`'s directory (owner, destination or issuer), validated ledger. */
export async function readEscrows(client: Client, account: string): Promise<LedgerEscrow[]> {
  const out: LedgerEscrow[] = [];
  let marker: unknown;
  for (let page = 0; page < MAX_PAGES; page++) {
    let res;
    try {
      res = await client.request({
        command: 'account_objects',
        account,
        type: 'escrow',
        ledger_index: 'validated',
        limit: 400,
        ...(marker ? { marker } : {}),
      });
    } catch (err) {
      if (notFound(err)) return [];
      throw err;
    }
    for (const o of res.result.account_objects as unknown as RawEscrow[]) {
      if (typeof o.Amount === 'string') continue; // XRP escrows are not a token's
      out.push({
        index: o.index,
        owner: o.Account,
        destination: o.Destination,
        currency: o.Amount.currency,
        issuer: o.Amount.issuer,
        amount: new Decimal(o.Amount.value).toFixed(),
        finishAfter: o.FinishAfter ?? null,
        cancelAfter: o.CancelAfter ?? null,
        condition: o.Condition ?? null,
        previousTxnId: o.PreviousTxnID,
      });
    }
    marker = res.result.marker;
    if (!marker) break;
  }
  return out;
}

/** Every escrow of one token, whoever made it. */
export async function tokenEscrows(
  client: Client,
  issuer: string,
  currency: string,
): Promise<LedgerEscrow[]> {
  return (await readEscrows(client, issuer)).filter((e) => e.issuer === issuer && e.currency === currency);
}

/** The validated ledger's close time (Ripple seconds) and index. */
export async function validatedClose(client: Client): Promise<{ closeTime: number; index: number }> {
  const r = await client.request({ command: 'ledger', ledger_index: 'validated' });
  return { closeTime: r.result.ledger.close_time, index: r.result.ledger_index };
}

export function toEscrowView(e: LedgerEscrow): EscrowView {
  return {
    index: e.index,
    owner: e.owner,
    destination: e.destination,
    amount: e.amount,
    finishAfter: e.finishAfter === null ? null : rippleTime.toIso(e.finishAfter),
    cancelAfter: e.cancelAfter === null ? null : rippleTime.toIso(e.cancelAfter),
    createdBy: e.previousTxnId,
  };
}

/** Locked amounts per token ("currency|issuer") that `owner` has in escrows. */
export async function lockedByToken(client: Client, owner: string): Promise<Map<string, Decimal>> {
  const out = new Map<string, Decimal>();
  for (const e of await readEscrows(client, owner)) {
    if (e.owner !== owner) continue; // listed as destination only: not this account's lock
    const key = `${e.currency}|${e.issuer}`;
    out.set(key, (out.get(key) ?? new Decimal(0)).plus(e.amount));
  }
  return out;
}
