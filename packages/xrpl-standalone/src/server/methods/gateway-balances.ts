// gateway_balances: what an issuer owes (obligations), holds at hot wallets (balances), and is
// owed (assets), summed exactly over its trust lines; and what is locked in escrows listed under it.
import { isValidClassicAddress } from 'ripple-address-codec';
import type { JsonObject } from '../../core/contract';
import type { MethodSpec } from '../context';
import { RpcError } from '../errors';
import { addDecimal, formatDecimal, negateDecimal, parseDecimal, type Decimal } from '../decimal';
import { ownedEntries } from '../owner-dir';
import { isObject, requireAccount, resolveLedger } from '../params';
import { lineFromSide, readAccountRoot } from './account-info';
import { LSF } from '../../core/ledger-flags';

function readHotWallets(params: JsonObject): Set<string> {
  const value = params.hotwallet;
  if (value === undefined) return new Set();
  const list = Array.isArray(value) ? value : [value];
  for (const w of list) {
    if (typeof w !== 'string' || !isValidClassicAddress(w)) throw new RpcError('invalidHotWallet');
  }
  return new Set(list as string[]);
}

function add(map: Map<string, Decimal>, key: string, value: Decimal): void {
  const prev = map.get(key);
  map.set(key, prev ? addDecimal(prev, value) : value);
}

type PeerBalances = Map<string, Array<{ currency: string; value: string }>>;

function pushPeer(map: PeerBalances, peer: string, currency: string, value: Decimal): void {
  const list = map.get(peer) ?? [];
  list.push({ currency, value: formatDecimal(value) });
  map.set(peer, list);
}

export const gatewayBalancesMethod: MethodSpec = {
  handler: ({ node, params }) => {
    const account = requireAccount(params);
    const hotWallets = readHotWallets(params);
    const { view, fields } = resolveLedger(node, params);
    readAccountRoot(view, account, fields);
    const obligations = new Map<string, Decimal>();
    const balances: PeerBalances = new Map();
    const assets: PeerBalances = new Map();
    const frozenBalances: PeerBalances = new Map();
    // Escrows listed under the account (its own, those to it, and token escrows of its issues):
    // rippled sums their amounts per currency as `locked` (XRP ones too; MPT ones are skipped).
    const locked = new Map<string, Decimal>();
    for (const entry of ownedEntries(view, account)) {
      if (entry.LedgerEntryType === 'Escrow') {
        const amount = entry.Amount;
        if (typeof amount === 'string') add(locked, 'XRP', { mantissa: BigInt(amount), exponent: 0 });
        else if (isObject(amount) && typeof amount.currency === 'string' && typeof amount.value === 'string')
          add(locked, amount.currency, parseDecimal(amount.value));
        continue;
      }
      if (entry.LedgerEntryType !== 'RippleState') continue;
      const line = lineFromSide(entry, account);
      const balance = parseDecimal(line.balance);
      if (balance.mantissa === 0n) continue;
      const flags = Number(entry.Flags ?? 0);
      // A freeze this account (the gateway) set on its side of the line (rippled's getFreeze()).
      const frozen = (flags & (line.isLow ? LSF.lowFreeze : LSF.highFreeze)) !== 0;
      if (hotWallets.has(line.peer)) {
        // A hot wallet's balance, from the hot wallet's side.
        pushPeer(balances, line.peer, line.currency, negateDecimal(balance));
      } else if (balance.mantissa > 0n) {
        pushPeer(assets, line.peer, line.currency, balance);
      } else if (frozen) {
        pushPeer(frozenBalances, line.peer, line.currency, negateDecimal(balance));
      } else {
        add(obligations, line.currency, negateDecimal(balance));
      }
    }
    const result: JsonObject = { account };
    if (obligations.size > 0) {
      result.obligations = Object.fromEntries([...obligations].map(([c, v]) => [c, formatDecimal(v)]));
    }
    if (balances.size > 0) result.balances = Object.fromEntries(balances);
    if (frozenBalances.size > 0) result.frozen_balances = Object.fromEntries(frozenBalances);
    if (assets.size > 0) result.assets = Object.fromEntries(assets);
    if (locked.size > 0) {
      result.locked = Object.fromEntries(
        [...locked].map(([c, v]) => [c, c === 'XRP' ? v.mantissa.toString() : formatDecimal(v)]),
      );
    }
    return { ...result, ...fields };
  },
};
