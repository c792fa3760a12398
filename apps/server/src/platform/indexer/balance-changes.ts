import { Decimal, dropsToDecimal } from '@ledgerpad/shared';
import type { TransactionMetadata } from 'xrpl';

// A validated transaction's balance changes, as xrpl's `getBalanceChanges` reports them, for the
// ledger follower's handlers. Computed once per transaction whichever handlers ask (the market's
// trades, positions' fills and the bonding curves all read them), and only for the accounts a
// handler asks about: catching up, xrpl's version (bignumber.js for every balance of every node,
// each XRP amount through a float and back) was a fifth of the indexer's CPU time, paid twice per
// transaction. Here drops are bigints and issued values exact decimals, parsed when asked for.
//
// Same answers as `getBalanceChanges`: an AccountRoot's XRP change (in XRP), and each trust line's
// change from both sides (the low account's balance change against the high account, and its
// negation for the high account against the low one); zero changes are left out; accounts in the
// order of their first change in the metadata. The one difference: an XRP change is exact here,
// where xrpl passes it through a JS number (which rounds above 2^53 drops).

export interface BalanceChange {
  /** 'XRP', or the issued currency's code. */
  currency: string;
  /** An issued currency's other side: the trust line's counterparty (undefined for XRP). */
  issuer?: string;
  /** The change, in XRP for XRP (not drops). */
  value: Decimal;
}

type Issued = { currency: string; issuer: string; value: string };
type Fields = Record<string, unknown> & {
  Account?: string;
  Balance?: string | Issued;
  LowLimit?: { issuer: string };
  HighLimit?: { issuer: string };
};
interface Node {
  LedgerEntryType: string;
  NewFields?: Fields;
  FinalFields?: Fields;
  PreviousFields?: Fields;
}

/** Where an account's change comes from: its AccountRoot, or a trust line's low or high side. */
interface Entry {
  node: Node;
  side: 'root' | 'low' | 'high';
  /** The asset, known without computing the value: 'XRP' or the currency and the counterparty. */
  currency: string;
  issuer?: string;
}

/** Whether a node's Balance changed (xrpl's rule: NewFields.Balance, else Final − Previous, non-zero). */
function balanceChanged(node: Node): boolean {
  const created = node.NewFields?.Balance;
  if (created) return typeof created === 'string' ? BigInt(created) !== 0n : Number(created.value) !== 0;
  const prev = node.PreviousFields?.Balance;
  const final = node.FinalFields?.Balance;
  if (!prev || !final) return false;
  if (typeof prev === 'string' || typeof final === 'string')
    return BigInt(final as string) !== BigInt(prev as string);
  if (prev.value === final.value) return false;
  // Different doubles are different decimals; equal doubles may still be (more than 16 digits).
  return Number(prev.value) !== Number(final.value) || !new Decimal(prev.value).eq(final.value);
}

function balanceChange(node: Node): Decimal {
  const created = node.NewFields?.Balance;
  if (created)
    return typeof created === 'string' ? dropsToDecimal(BigInt(created)) : new Decimal(created.value);
  const prev = node.PreviousFields!.Balance!;
  const final = node.FinalFields!.Balance!;
  if (typeof final === 'string') return dropsToDecimal(BigInt(final) - BigInt(prev as string));
  return new Decimal(final.value).minus((prev as Issued).value);
}

export class TxBalanceChanges {
  /** Accounts whose balances changed, in the order of their first change in the metadata. */
  readonly accounts: string[] = [];
  private readonly entries = new Map<string, Entry[]>();
  private readonly values = new Map<string, BalanceChange[]>();

  constructor(meta: TransactionMetadata) {
    for (const affected of meta.AffectedNodes) {
      const node = (
        'ModifiedNode' in affected
          ? affected.ModifiedNode
          : 'CreatedNode' in affected
            ? affected.CreatedNode
            : affected.DeletedNode
      ) as Node;
      if (node.LedgerEntryType === 'AccountRoot') {
        if (!balanceChanged(node)) continue;
        const account = node.FinalFields?.Account ?? node.NewFields?.Account;
        if (account) this.add(account, { node, side: 'root', currency: 'XRP' });
      } else if (node.LedgerEntryType === 'RippleState') {
        if (!balanceChanged(node)) continue;
        const fields = (node.NewFields ?? node.FinalFields)!;
        const low = fields.LowLimit?.issuer;
        const high = fields.HighLimit?.issuer;
        const currency = (fields.Balance as Issued).currency;
        if (!low || !high) continue;
        this.add(low, { node, side: 'low', currency, issuer: high });
        this.add(high, { node, side: 'high', currency, issuer: low });
      }
    }
  }

  private add(account: string, entry: Entry) {
    const list = this.entries.get(account);
    if (list) list.push(entry);
    else {
      this.entries.set(account, [entry]);
      this.accounts.push(account);
    }
  }

  /** The assets an account's balance changed in (without computing the amounts), in metadata order. */
  assetsOf(account: string): ReadonlyArray<{ currency: string; issuer?: string }> {
    return this.entries.get(account) ?? [];
  }

  /** An account's changes, in metadata order (empty when its balances did not change). */
  of(account: string): BalanceChange[] {
    let out = this.values.get(account);
    if (!out) {
      out = (this.entries.get(account) ?? []).map(({ node, side, currency, issuer }) => {
        const value = balanceChange(node);
        return side === 'root'
          ? { currency, value }
          : { currency, issuer, value: side === 'high' ? value.neg() : value };
      });
      this.values.set(account, out);
    }
    return out;
  }
}

const memo = new WeakMap<TransactionMetadata, TxBalanceChanges>();

/** A transaction's balance changes, computed once per metadata object whoever asks. */
export function balanceChanges(meta: TransactionMetadata): TxBalanceChanges {
  let changes = memo.get(meta);
  if (!changes) {
    changes = new TxBalanceChanges(meta);
    memo.set(meta, changes);
  }
  return changes;
}
