// Multi-signing through the API: account_info's signer_lists (v1 and v2 placement) and
// submit_multisigned with a transaction assembled by xrpl.js.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from 'ripple-binary-codec';
import { Wallet, hashes, multisign, type SubmittableTransaction } from 'xrpl';
import { fund, genesis, startHarness, submitAndClose, type Harness } from './helpers';

let h: Harness;
let owner: Wallet;
const signers = [Wallet.generate(), Wallet.generate()];

beforeAll(async () => {
  h = await startHarness();
  owner = await fund(h);
  const set = await submitAndClose(
    h,
    {
      TransactionType: 'SignerListSet',
      Account: owner.address,
      SignerQuorum: 2,
      SignerEntries: signers.map((s) => ({ SignerEntry: { Account: s.address, SignerWeight: 1 } })),
    },
    owner,
  );
  expect(set.submitted.engine_result).toBe('tesSUCCESS');
});
afterAll(async () => h.close());

describe('multi-signing', () => {
  it('account_info reports the signer list where each API version puts it', async () => {
    const v2 = await h.client.request({
      command: 'account_info',
      account: owner.address,
      signer_lists: true,
    });
    expect(v2.result.signer_lists?.[0]).toMatchObject({ LedgerEntryType: 'SignerList', SignerQuorum: 2 });
    const v1 = await h.client.request({
      command: 'account_info',
      account: owner.address,
      signer_lists: true,
      api_version: 1,
    });
    expect((v1.result.account_data as unknown as { signer_lists: unknown[] }).signer_lists).toHaveLength(1);
  });

  it('submit_multisigned applies a transaction signed by the quorum', async () => {
    const prepared = await h.client.autofill(
      { TransactionType: 'AccountSet', Account: owner.address, Domain: '6578616D706C652E636F6D' },
      signers.length,
    );
    const blob = multisign(signers.map((s) => s.sign(prepared, true).tx_blob));
    const reply = (await h.client.connection.request({
      command: 'submit_multisigned',
      tx_json: decode(blob),
    })) as {
      result: { engine_result: string; tx_blob: string };
    };
    expect(reply.result.engine_result).toBe('tesSUCCESS');
    expect(reply.result.tx_blob).toBe(blob);
    await expect(
      h.client.connection.request({
        command: 'submit_multisigned',
        tx_json: { ...prepared, SigningPubKey: '' },
      }),
    ).rejects.toMatchObject({ data: { error: 'invalidParams' } });
  });
  // rippled's submit_multisigned formats its answer with transactionFormatResultImpl
  // (rpc/detail/TransactionSign.cpp): tx_json, tx_blob and the engine result only, none of
  // submit's accepted/applied/broadcast/kept/queued/account_sequence_*/open_ledger_cost/
  // validated_ledger_index. API v1 keeps the hash inside tx_json, v2 moves it beside tx_json.
  async function multisigned(tx: Record<string, unknown>, apiVersion: 1 | 2) {
    const prepared = await h.client.autofill(
      { Account: owner.address, ...tx } as unknown as SubmittableTransaction,
      signers.length,
    );
    const blob = multisign(signers.map((s) => s.sign(prepared, true).tx_blob));
    const reply = (await h.client.connection.request({
      command: 'submit_multisigned',
      tx_json: decode(blob),
      api_version: apiVersion,
    })) as { result: Record<string, unknown> };
    return { blob, result: reply.result };
  }

  it('submit_multisigned under API v2: engine result, tx_blob, tx_json and the hash beside it', async () => {
    const { blob, result } = await multisigned(
      { TransactionType: 'Payment', Destination: genesis.address, Amount: '1000000' },
      2,
    );
    expect(Object.keys(result).sort()).toEqual([
      'engine_result',
      'engine_result_code',
      'engine_result_message',
      'hash',
      'tx_blob',
      'tx_json',
    ]);
    expect(result).toMatchObject({
      engine_result: 'tesSUCCESS',
      engine_result_code: 0,
      engine_result_message: 'The transaction was applied. Only final in a validated ledger.',
      hash: hashes.hashSignedTx(blob),
      tx_blob: blob,
    });
    const txJson = result.tx_json as Record<string, unknown>;
    expect(txJson.hash).toBeUndefined();
    // a Payment's Amount is shown as DeliverMax under v2 (RPC::insertDeliverMax)
    expect(txJson.DeliverMax).toBe('1000000');
    expect(txJson.Amount).toBeUndefined();
    expect(txJson).toMatchObject({ TransactionType: 'Payment', Account: owner.address, SigningPubKey: '' });
    expect(txJson.Signers).toHaveLength(2);
  });

  it('submit_multisigned under API v1: the hash inside tx_json, nothing else added', async () => {
    const { blob, result } = await multisigned(
      { TransactionType: 'Payment', Destination: genesis.address, Amount: '2000000' },
      1,
    );
    expect(Object.keys(result).sort()).toEqual([
      'engine_result',
      'engine_result_code',
      'engine_result_message',
      'tx_blob',
      'tx_json',
    ]);
    expect(result).toMatchObject({ engine_result: 'tesSUCCESS', engine_result_code: 0, tx_blob: blob });
    expect(result.tx_json).toMatchObject({
      hash: hashes.hashSignedTx(blob),
      Amount: '2000000',
      DeliverMax: '2000000',
    });
    // both were applied to the open ledger
    h.ledger.closeLedger();
    const tx = await h.client.request({ command: 'tx', transaction: hashes.hashSignedTx(blob) });
    expect(tx.result.validated).toBe(true);
  });
});
