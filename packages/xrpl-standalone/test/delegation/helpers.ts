// Delegation test plumbing: transactions sent for an account by its delegate (autofilled for the
// account, signed by the delegate, as xrpl.js's own delegateSet test does), the Delegate entry's
// index worked out from rippled's keylet::delegate, and the entries an account's directory lists.
import { createHash } from 'node:crypto';
import { decodeAccountID } from 'ripple-address-codec';
import { encode, encodeForSigning } from 'ripple-binary-codec';
import { sign } from 'ripple-keypairs';
import type { SubmittableTransaction, TxResponse, Wallet } from 'xrpl';
import { request, type Dex, type Submitted } from '../dex/helpers';

/** SHA-512Half of namespace 'E' (0x0045), the granting and the authorized AccountIDs. */
export function delegateIndex(account: string, authorized: string): string {
  const data = Buffer.concat([
    Buffer.from([0x00, 0x45]),
    Buffer.from(decodeAccountID(account)),
    Buffer.from(decodeAccountID(authorized)),
  ]);
  return createHash('sha512').update(data).digest('hex').slice(0, 64).toUpperCase();
}

export const grant = (authorized: Wallet, permissions: Array<string | number>) => ({
  TransactionType: 'DelegateSet',
  Authorize: authorized.address,
  Permissions: permissions.map((p) => ({ Permission: { PermissionValue: p } })),
});

/** After a close, the validated transaction (tes/tec only). */
async function settled(dex: Dex, result: string, hash: string): Promise<Submitted> {
  dex.ledger.closeLedger();
  if (!result.startsWith('tes') && !result.startsWith('tec')) return { result, hash };
  const got = (await dex.client.request({ command: 'tx', transaction: hash })) as TxResponse;
  const { meta, ...rest } = got.result as unknown as { meta: Record<string, unknown> } & Record<
    string,
    unknown
  >;
  return { result: String(meta.TransactionResult), hash, meta, tx: rest.tx_json as Record<string, unknown> };
}

/**
 * `delegate` sends `tx` for `account`: autofilled for the account (its Sequence), with the
 * Delegate field, signed by `signer` (the delegate, or another key to test the refusals).
 */
export async function sendFor(
  dex: Dex,
  signer: Wallet,
  account: Wallet,
  tx: Record<string, unknown>,
  delegate: Wallet = signer,
): Promise<Submitted> {
  const prepared = await dex.client.autofill({
    Account: account.address,
    Delegate: delegate.address,
    ...tx,
  } as unknown as SubmittableTransaction);
  const signed = signer.sign(prepared);
  const res = await dex.client.request({ command: 'submit', tx_blob: signed.tx_blob });
  return settled(dex, res.result.engine_result, signed.hash);
}

/** sendFor without xrpl.js's validation and autofill: the transaction as given, signed. */
export async function sendRawFor(
  dex: Dex,
  signer: Wallet,
  account: Wallet,
  tx: Record<string, unknown>,
  fee = '10',
): Promise<Submitted> {
  const info = await dex.client.request({
    command: 'account_info',
    account: account.address,
    ledger_index: 'current',
  });
  const full: Record<string, unknown> = {
    Account: account.address,
    Delegate: signer.address,
    Fee: fee,
    Sequence: info.result.account_data.Sequence,
    SigningPubKey: signer.publicKey,
    ...tx,
  };
  full.TxnSignature = sign(encodeForSigning(full as never), signer.privateKey);
  const blob = encode(full as never);
  const res = await dex.client.request({ command: 'submit', tx_blob: blob });
  const hash = (res.result.tx_json as { hash?: string }).hash ?? '';
  return settled(dex, res.result.engine_result, hash);
}

export async function delegatesOf(dex: Dex, address: string): Promise<Array<Record<string, unknown>>> {
  const r = await request<{ account_objects: Array<Record<string, unknown>> }>(dex, {
    command: 'account_objects',
    account: address,
    type: 'delegate',
    ledger_index: 'validated',
  });
  return r.account_objects;
}
