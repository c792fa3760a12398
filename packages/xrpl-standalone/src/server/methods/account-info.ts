// account_info and account_currencies.
import type { JsonObject, LedgerEntry, LedgerView } from '../../core/contract';
import type { MethodSpec } from '../context';
import { RpcError, invalidField } from '../errors';
import { accountRootIndex, signerListIndex } from '../keylets';
import { compareDecimal, negateDecimal, negateText, parseDecimal } from '../decimal';
import { ownedEntries } from '../owner-dir';
import { optionalBool, requireAccount, resolveLedger } from '../params';
import { LSF } from '../../core/ledger-flags';

const ACCOUNT_FLAGS: Array<[string, number]> = [
  ['defaultRipple', LSF.defaultRipple],
  ['depositAuth', LSF.depositAuth],
  ['disableMasterKey', LSF.disableMaster],
  ['disallowIncomingXRP', LSF.disallowXRP],
  ['globalFreeze', LSF.globalFreeze],
  ['noFreeze', LSF.noFreeze],
  ['passwordSpent', LSF.passwordSpent],
  ['requireAuthorization', LSF.requireAuth],
  ['requireDestinationTag', LSF.requireDestTag],
  ['disallowIncomingCheck', LSF.disallowIncomingCheck],
  ['disallowIncomingNFTokenOffer', LSF.disallowIncomingNFTokenOffer],
  ['disallowIncomingPayChan', LSF.disallowIncomingPayChan],
  ['disallowIncomingTrustline', LSF.disallowIncomingTrustline],
  ['allowTrustLineClawback', LSF.allowTrustLineClawback],
  ['allowTrustLineLocking', LSF.allowTrustLineLocking],
];

/** The AccountRoot of `account` in `view`, or actNotFound with the ledger fields rippled adds. */
export function readAccountRoot(view: LedgerView, account: string, fields: JsonObject): LedgerEntry {
  const root = view.read(accountRootIndex(account));
  if (!root) throw new RpcError('actNotFound', undefined, { account, ...fields });
  return root;
}

export const accountInfoMethod: MethodSpec = {
  handler: ({ node, params, apiVersion }) => {
    // rippled accepts the legacy `ident` alias for `account`.
    const source =
      params.account === undefined && params.ident !== undefined
        ? { ...params, account: params.ident }
        : params;
    const account = requireAccount(source);
    const signerLists = optionalBool(params, 'signer_lists');
    if (params.queue !== undefined && typeof params.queue !== 'boolean')
      throw invalidField('queue', 'a boolean');
    const { view, fields } = resolveLedger(node, params);
    const root = readAccountRoot(view, account, fields);
    const flags = Number(root.Flags ?? 0) >>> 0;
    const accountFlags: JsonObject = {};
    for (const [name, bit] of ACCOUNT_FLAGS) accountFlags[name] = (flags & bit) !== 0;
    const result: JsonObject = { account_data: root, account_flags: accountFlags };
    if (signerLists) {
      const list = view.read(signerListIndex(account));
      const lists = list ? [list] : [];
      if (apiVersion > 1) result.signer_lists = lists;
      else result.account_data = { ...root, signer_lists: lists };
    }
    if (params.queue === true) {
      if (view.closed) throw new RpcError('invalidParams', 'queue is only available for the current ledger');
      // Stand-alone never queues: transactions apply to the open ledger or are held as ter.
      result.queue_data = { txn_count: 0 };
    }
    return { ...result, ...fields };
  },
};

/** A trust line seen from `account`'s side, as rippled's RPCTrustLine. */
export interface AccountLineView {
  entry: LedgerEntry;
  peer: string;
  currency: string;
  balance: string;
  limit: string;
  limitPeer: string;
  isLow: boolean;
}

export function lineFromSide(entry: LedgerEntry, account: string): AccountLineView {
  const low = entry.LowLimit as { currency: string; issuer: string; value: string };
  const high = entry.HighLimit as { currency: string; issuer: string; value: string };
  const balance = (entry.Balance as { value: string }).value;
  const isLow = low.issuer === account;
  const mine = isLow ? low : high;
  const theirs = isLow ? high : low;
  const signed = isLow ? balance : negateText(balance);
  return {
    entry,
    peer: theirs.issuer,
    currency: low.currency,
    balance: signed,
    limit: mine.value,
    limitPeer: theirs.value,
    isLow,
  };
}

export const accountCurrenciesMethod: MethodSpec = {
  handler: ({ node, params }) => {
    const account = requireAccount(params);
    const { view, fields } = resolveLedger(node, params);
    readAccountRoot(view, account, fields);
    const receive = new Set<string>();
    const send = new Set<string>();
    for (const entry of ownedEntries(view, account)) {
      if (entry.LedgerEntryType !== 'RippleState') continue;
      const line = lineFromSide(entry, account);
      const balance = parseDecimal(line.balance);
      if (compareDecimal(balance, parseDecimal(line.limit)) < 0) receive.add(line.currency);
      if (compareDecimal(negateDecimal(balance), parseDecimal(line.limitPeer)) < 0) send.add(line.currency);
    }
    return {
      ...fields,
      receive_currencies: [...receive].sort(),
      send_currencies: [...send].sort(),
    };
  },
};
