// The few ledger-object IDs the RPC layer needs to walk state (rippled's keylet.cpp): SHA-512Half
// over a two-byte space key and the object's fields.
import { createHash } from 'node:crypto';
import { accountIdHex } from './params';

function sha512Half(hex: string): string {
  return createHash('sha512').update(Buffer.from(hex, 'hex')).digest('hex').slice(0, 64).toUpperCase();
}

export function accountRootIndex(address: string): string {
  return sha512Half('0061' + accountIdHex(address));
}

export function ownerDirIndex(address: string): string {
  return sha512Half('004F' + accountIdHex(address));
}

export function dirPageIndex(rootIndex: string, page: bigint): string {
  if (page === 0n) return rootIndex;
  return sha512Half('0064' + rootIndex + page.toString(16).padStart(16, '0'));
}

export function signerListIndex(address: string): string {
  return sha512Half('0053' + accountIdHex(address) + '00000000');
}
