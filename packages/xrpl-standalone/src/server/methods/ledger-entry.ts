// ledger_entry: by `index` or by rippled's typed selectors, with `binary`.
import { createHash } from 'node:crypto';
import { isValidClassicAddress } from 'ripple-address-codec';
import type { JsonObject } from '../../core/contract';
import type { MethodSpec } from '../context';
import { RpcError } from '../errors';
import { accountRootIndex, dirPageIndex, ownerDirIndex } from '../keylets';
import { accountIdHex, isHash256, isObject, resolveLedger } from '../params';
import { entryBlob } from './ledger';

function sha512Half(hex: string): string {
  return createHash('sha512').update(Buffer.from(hex, 'hex')).digest('hex').slice(0, 64).toUpperCase();
}

function malformed(what: string): RpcError {
  return new RpcError('invalidParams', what);
}

function address(value: unknown, what = 'malformedAddress'): string {
  if (typeof value !== 'string' || !isValidClassicAddress(value)) throw malformed(what);
  return accountIdHex(value);
}

function uint32Hex(value: unknown, what: string): string {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffffff)
    throw malformed(what);
  return value.toString(16).padStart(8, '0');
}

/** A currency as its 160-bit code: ISO codes in rippled's standard layout, 40-hex as is. */
export function currencyHex(value: unknown): string {
  if (typeof value !== 'string') throw malformed('malformedCurrency');
  if (/^[0-9A-Fa-f]{40}$/.test(value)) return value.toUpperCase();
  if (value === 'XRP') return '0'.repeat(40);
  if (!/^[A-Za-z0-9?!@#$%^&*<>(){}[\]|]{3}$/.test(value)) throw malformed('malformedCurrency');
  return '0'.repeat(24) + Buffer.from(value, 'ascii').toString('hex').toUpperCase() + '0'.repeat(10);
}

function issueParts(issue: unknown): { currency: string; account: string } {
  if (!isObject(issue)) throw malformed('malformedRequest');
  const currency = currencyHex(issue.currency);
  if (currency === '0'.repeat(40)) {
    if (issue.issuer !== undefined) throw malformed('malformedRequest');
    return { currency, account: '0'.repeat(40) };
  }
  return { currency, account: address(issue.issuer, 'malformedRequest') };
}

/** keylet::amm: sorted by (currency, issuer) as rippled's Issue ordering. */
export function ammIndex(asset: unknown, asset2: unknown): string {
  const a = issueParts(asset);
  const b = issueParts(asset2);
  const key = (i: { currency: string; account: string }) => i.currency + i.account;
  const [min, max] = key(a) <= key(b) ? [a, b] : [b, a];
  return sha512Half('0041' + min.account + min.currency + max.account + max.currency);
}

function indexOrObject(value: unknown, fromObject: (o: JsonObject) => string): string {
  if (typeof value === 'string') {
    if (!isHash256(value)) throw malformed('malformedRequest');
    return value.toUpperCase();
  }
  if (!isObject(value)) throw malformed('malformedRequest');
  return fromObject(value);
}

function selectIndex(params: JsonObject): string {
  if (params.index !== undefined) {
    if (!isHash256(params.index)) throw malformed('malformedRequest');
    return params.index.toUpperCase();
  }
  if (params.account_root !== undefined) {
    const a = params.account_root;
    if (typeof a !== 'string' || !isValidClassicAddress(a)) throw malformed('malformedAddress');
    return accountRootIndex(a);
  }
  if (params.ripple_state !== undefined) {
    const rs = params.ripple_state;
    if (
      !isObject(rs) ||
      !Array.isArray(rs.accounts) ||
      rs.accounts.length !== 2 ||
      rs.currency === undefined
    ) {
      throw malformed('malformedRequest');
    }
    const [a, b] = rs.accounts.map((x) => address(x));
    if (a === b) throw malformed('malformedRequest');
    const [low, high] = (a as string) < (b as string) ? [a, b] : [b, a];
    return sha512Half('0072' + low + high + currencyHex(rs.currency));
  }
  if (params.directory !== undefined) {
    return indexOrObject(params.directory, (d) => {
      const sub = d.sub_index === undefined ? 0 : d.sub_index;
      if (typeof sub !== 'number' || !Number.isInteger(sub) || sub < 0) throw malformed('malformedRequest');
      if (d.dir_root !== undefined) {
        if (d.owner !== undefined || !isHash256(d.dir_root)) throw malformed('malformedRequest');
        return dirPageIndex(d.dir_root.toUpperCase(), BigInt(sub));
      }
      if (typeof d.owner !== 'string' || !isValidClassicAddress(d.owner)) throw malformed('malformedAddress');
      return dirPageIndex(ownerDirIndex(d.owner), BigInt(sub));
    });
  }
  if (params.offer !== undefined) {
    return indexOrObject(params.offer, (o) =>
      sha512Half('006F' + address(o.account) + uint32Hex(o.seq, 'malformedRequest')),
    );
  }
  if (params.ticket !== undefined) {
    return indexOrObject(params.ticket, (t) =>
      sha512Half('0054' + address(t.account) + uint32Hex(t.ticket_seq, 'malformedRequest')),
    );
  }
  if (params.escrow !== undefined) {
    return indexOrObject(params.escrow, (e) =>
      sha512Half('0075' + address(e.owner, 'malformedOwner') + uint32Hex(e.seq, 'malformedSeq')),
    );
  }
  if (params.deposit_preauth !== undefined) {
    return indexOrObject(params.deposit_preauth, (d) =>
      sha512Half('0070' + address(d.owner, 'malformedOwner') + address(d.authorized, 'malformedAuthorized')),
    );
  }
  if (params.amm !== undefined) {
    return indexOrObject(params.amm, (a) => ammIndex(a.asset, a.asset2));
  }
  if (params.delegate !== undefined) {
    // keylet::delegate(account, authorize): namespace 'E'.
    return indexOrObject(params.delegate, (d) =>
      sha512Half('0045' + address(d.account) + address(d.authorize)),
    );
  }
  for (const plain of [
    'check',
    'payment_channel',
    'nft_page',
    'signer_list',
    'did',
    'bridge',
    'credential',
    'oracle',
  ]) {
    if (params[plain] !== undefined) {
      if (!isHash256(params[plain])) throw malformed('malformedRequest');
      return params[plain].toUpperCase();
    }
  }
  throw new RpcError('invalidParams', 'unknownOption');
}

const TYPE_BY_SELECTOR: Record<string, string> = {
  account_root: 'AccountRoot',
  ripple_state: 'RippleState',
  directory: 'DirectoryNode',
  offer: 'Offer',
  ticket: 'Ticket',
  check: 'Check',
  escrow: 'Escrow',
  deposit_preauth: 'DepositPreauth',
  amm: 'AMM',
  delegate: 'Delegate',
  payment_channel: 'PayChannel',
};

export const ledgerEntryMethod: MethodSpec = {
  handler: ({ node, params }) => {
    const { view, fields } = resolveLedger(node, params);
    const index = selectIndex(params);
    const entry = view.read(index);
    if (!entry) throw new RpcError('entryNotFound', undefined, fields);
    const expected = Object.entries(TYPE_BY_SELECTOR).find(([sel]) => params[sel] !== undefined)?.[1];
    if (expected && entry.LedgerEntryType !== expected)
      throw new RpcError('unexpectedLedgerType', undefined, fields);
    const result: JsonObject = { index };
    if (params.binary === true) result.node_binary = entryBlob(entry);
    else result.node = entry;
    return { ...result, ...fields };
  },
};
