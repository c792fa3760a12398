// Issued amounts read from binary at their full range, as rippled reads them: the largest IOU
// (9999999999999999e80, printed by the codec as 96 digits) and a full 16-digit mantissa below
// 1e-16 (1234567890123456e-32, 32 decimals) are ordinary amounts in a signed blob. rippled's
// 32-digit limit applies only to JSON text it parses itself (tx_json with a secret, simulate).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, encode } from 'ripple-binary-codec';
import type { Wallet } from 'xrpl';
import {
  expectResult,
  funded,
  genesis,
  issuer,
  request,
  submitRaw,
  type Dex,
  startDex,
} from '../dex/helpers';
import { GENESIS_SEED } from '../../src/index';

let dex: Dex;
let gw: Wallet;
let holder: Wallet;

beforeAll(async () => {
  dex = await startDex();
  gw = await issuer(dex);
  holder = await funded(dex, 100);
}, 60_000);

afterAll(async () => dex?.close());

const LARGEST = '9999999999999999e80';
const LARGEST_PLAIN = `9999999999999999${'0'.repeat(80)}`;
const TINY = '1234567890123456e-32';
const TINY_PLAIN = `0.${'0'.repeat(16)}1234567890123456`;

async function limitOf(currency: string): Promise<string | undefined> {
  const r = await dex.client.request({ command: 'account_lines', account: holder.address, peer: gw.address });
  return r.result.lines.find((l) => l.currency === currency)?.limit;
}

describe('issued amounts in binary', () => {
  it('the codec prints them in plain notation, beyond 32 digits', () => {
    const blob = encode({
      TransactionType: 'TrustSet',
      Account: holder.address,
      LimitAmount: { currency: 'USD', issuer: gw.address, value: LARGEST },
    } as never);
    expect((decode(blob).LimitAmount as { value: string }).value).toBe(LARGEST_PLAIN);
  });

  it('accepts a binary TrustSet with the largest IOU limit and stores it as rippled prints it', async () => {
    const result = await submitRaw(dex, holder, {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: 'USD', issuer: gw.address, value: LARGEST },
    });
    expect(result).toBe('tesSUCCESS');
    expect(await limitOf('USD')).toBe(LARGEST);
  });

  it('accepts a binary TrustSet and a Payment with a full 16-digit mantissa at 1e-17', async () => {
    expect(
      await submitRaw(dex, holder, {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'EUR', issuer: gw.address, value: TINY },
      }),
    ).toBe('tesSUCCESS');
    // Exponent -32 is outside rippled's decimal range (-25..-5): printed in scientific form.
    expect(await limitOf('EUR')).toBe(TINY);
    expect(
      await submitRaw(dex, gw, {
        TransactionType: 'Payment',
        Destination: holder.address,
        Amount: { currency: 'EUR', issuer: gw.address, value: TINY },
      }),
    ).toBe('tesSUCCESS');
    const r = await dex.client.request({
      command: 'account_lines',
      account: holder.address,
      peer: gw.address,
    });
    expect(r.result.lines.find((l) => l.currency === 'EUR')?.balance).toBe(TINY);
  });

  it('keeps the 32-digit rule for JSON text rippled parses itself', async () => {
    const tx = {
      TransactionType: 'TrustSet',
      Account: holder.address,
      LimitAmount: { currency: 'GBP', issuer: gw.address, value: LARGEST_PLAIN },
    };
    const invalid = {
      error: 'invalidParams',
      error_message: "Field 'tx_json.LimitAmount' has invalid data.",
    };
    await expect(request(dex, { command: 'simulate', tx_json: tx })).rejects.toMatchObject({ data: invalid });
    await expect(
      request(dex, { command: 'sign', tx_json: { ...tx, Account: genesis.address }, secret: GENESIS_SEED }),
    ).rejects.toMatchObject({ data: invalid });
    await expect(
      request(dex, {
        command: 'simulate',
        tx_json: { ...tx, LimitAmount: { ...tx.LimitAmount, value: TINY_PLAIN } },
      }),
    ).rejects.toMatchObject({ data: invalid });
    // The same values written with an exponent are 16 digits of JSON text: fine.
    const ok = await request<{ engine_result: string }>(dex, {
      command: 'simulate',
      tx_json: { ...tx, LimitAmount: { ...tx.LimitAmount, value: LARGEST } },
    });
    expect(ok.engine_result).toBe('tesSUCCESS');
  });

  it('pays with a binary amount whose value text has 32 decimals', async () => {
    await expectResult(dex, holder, {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: 'CHF', issuer: gw.address, value: '1' },
    });
    const res = await expectResult(dex, gw, {
      TransactionType: 'Payment',
      Destination: holder.address,
      Amount: { currency: 'CHF', issuer: gw.address, value: TINY },
    });
    expect(res.result).toBe('tesSUCCESS');
  });
});
