// Multi-signing through the API: account_info's signer_lists (v1 and v2 placement) and
// submit_multisigned with a transaction assembled by xrpl.js.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from 'ripple-binary-codec';
import { Wallet, multisign } from 'xrpl';
import { fund, startHarness, submitAndClose, type Harness } from './helpers';

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
});
