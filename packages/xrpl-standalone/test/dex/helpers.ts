// DEX/AMM test plumbing: a fresh stand-alone server per suite driven through xrpl.js, funded
// wallets, a token issuer with DefaultRipple, trust lines and balances read back from the ledger.
import { Wallet, type SubmittableTransaction, type TxResponse } from 'xrpl';
import { encode, encodeForSigning } from 'ripple-binary-codec';
import { sign } from 'ripple-keypairs';
import { genesis, startTestLedger, type TestLedger } from '../support/ledger';

export { genesis };
export type Dex = TestLedger;

/** The shared harness without the faucet, with the suite's amendments (and clock or fee). */
export const startDex = (
  amendments?: readonly string[],
  options: { clockOffsetMs?: number; baseFee?: number } = {},
): Promise<Dex> => startTestLedger({ faucet: false, amendments, ...options });

export interface Submitted {
  result: string;
  hash: string;
  meta?: Record<string, unknown>;
  tx?: Record<string, unknown>;
}

/** Autofill, sign, submit, close the ledger and fetch the validated transaction. */
export async function submit(dex: Dex, wallet: Wallet, tx: Record<string, unknown>): Promise<Submitted> {
  const prepared = await dex.client.autofill({
    Account: wallet.address,
    ...tx,
  } as unknown as SubmittableTransaction);
  const signed = wallet.sign(prepared);
  const res = await dex.client.request({ command: 'submit', tx_blob: signed.tx_blob });
  const result = res.result.engine_result;
  dex.ledger.closeLedger();
  if (!result.startsWith('tes') && !result.startsWith('tec')) return { result, hash: signed.hash };
  const got = (await dex.client.request({ command: 'tx', transaction: signed.hash })) as TxResponse;
  const { meta, ...rest } = got.result as unknown as { meta: Record<string, unknown> } & Record<
    string,
    unknown
  >;
  const txJson = (rest.tx_json as Record<string, unknown> | undefined) ?? rest;
  return { result: String(meta.TransactionResult), hash: signed.hash, meta, tx: txJson };
}

/**
 * Sign without xrpl.js's client-side validation (which would refuse the malformed transactions
 * whose server-side rejection we test) and submit; returns the engine result.
 */
export async function submitRaw(
  dex: Dex,
  wallet: Wallet,
  tx: Record<string, unknown>,
  fee = '10',
): Promise<string> {
  const info = await dex.client.request({
    command: 'account_info',
    account: wallet.address,
    ledger_index: 'current',
  });
  const full: Record<string, unknown> = {
    Account: wallet.address,
    Fee: fee,
    Sequence: info.result.account_data.Sequence,
    SigningPubKey: wallet.publicKey,
    ...tx,
  };
  full.TxnSignature = sign(encodeForSigning(full as never), wallet.privateKey);
  const res = await dex.client.request({ command: 'submit', tx_blob: encode(full as never) });
  dex.ledger.closeLedger();
  return res.result.engine_result;
}

export async function expectResult(
  dex: Dex,
  wallet: Wallet,
  tx: Record<string, unknown>,
  expected = 'tesSUCCESS',
): Promise<Submitted> {
  const r = await submit(dex, wallet, tx);
  if (r.result !== expected)
    throw new Error(`${String(tx.TransactionType)}: expected ${expected}, got ${r.result}`);
  return r;
}

export async function funded(dex: Dex, xrp = 10_000): Promise<Wallet> {
  const w = Wallet.generate();
  await expectResult(dex, genesis, {
    TransactionType: 'Payment',
    Destination: w.address,
    Amount: String(BigInt(xrp) * 1_000_000n),
  });
  return w;
}

/** An issuer with DefaultRipple set (required for AMM pools of its tokens). */
export async function issuer(dex: Dex, xrp = 10_000): Promise<Wallet> {
  const w = await funded(dex, xrp);
  await expectResult(dex, w, { TransactionType: 'AccountSet', SetFlag: 8 });
  return w;
}

export async function trust(
  dex: Dex,
  holder: Wallet,
  iss: Wallet,
  currency: string,
  limit = '1000000000',
): Promise<void> {
  await expectResult(dex, holder, {
    TransactionType: 'TrustSet',
    LimitAmount: { currency, issuer: iss.address, value: limit },
  });
}

export async function issue(
  dex: Dex,
  iss: Wallet,
  holder: Wallet,
  currency: string,
  value: string,
): Promise<void> {
  await trust(dex, holder, iss, currency);
  await expectResult(dex, iss, {
    TransactionType: 'Payment',
    Destination: holder.address,
    Amount: { currency, issuer: iss.address, value },
  });
}

export async function xrpBalance(dex: Dex, address: string): Promise<bigint> {
  const r = await dex.client.request({ command: 'account_info', account: address, ledger_index: 'current' });
  return BigInt(r.result.account_data.Balance);
}

/** The holder's balance of issuer's currency, as rippled prints it ('0' without a line). */
export async function tokenBalance(dex: Dex, holder: string, iss: string, currency: string): Promise<string> {
  const r = await dex.client.request({
    command: 'account_lines',
    account: holder,
    peer: iss,
    ledger_index: 'current',
  });
  const line = r.result.lines.find((l) => l.currency === currency);
  return line ? line.balance : '0';
}

export function usd(iss: Wallet, value: string): { currency: string; issuer: string; value: string } {
  return { currency: 'USD', issuer: iss.address, value };
}

/** A request xrpl.js's typings don't cover (or with fields they don't know). */
export async function request<T = Record<string, unknown>>(
  dex: Dex,
  req: Record<string, unknown>,
): Promise<T> {
  const send = dex.client.request.bind(dex.client) as unknown as (
    r: Record<string, unknown>,
  ) => Promise<{ result: T }>;
  return (await send(req)).result;
}
