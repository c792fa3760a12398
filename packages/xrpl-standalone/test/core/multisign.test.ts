import { describe, expect, it } from 'vitest';
import { Wallet, multisign, type SubmittableTransaction } from 'xrpl';
import { Harness } from './helpers';
import { GENESIS_ADDRESS } from '../../src/core/ledger-node';
import { signerListKey } from '../../src/core/keylets';

describe('multi-signing', () => {
  it('sets a signer list and accepts transactions meeting its quorum', () => {
    const h = new Harness();
    const w = h.wallet();
    const [a, b, c] = [Wallet.generate(), Wallet.generate(), h.wallet()];
    const raw = (tx: Record<string, unknown>) => h.node.submit(h.signRaw(w, tx)).engine_result;
    const entry = (acct: string, weight: number) => ({
      SignerEntry: { Account: acct, SignerWeight: weight },
    });
    expect(
      raw({
        TransactionType: 'SignerListSet',
        SignerQuorum: 3,
        SignerEntries: [entry(a.classicAddress, 1), entry(b.classicAddress, 1)],
      }),
    ).toBe('temBAD_QUORUM');
    expect(
      raw({ TransactionType: 'SignerListSet', SignerQuorum: 1, SignerEntries: [entry(w.classicAddress, 1)] }),
    ).toBe('temBAD_SIGNER');
    expect(
      raw({ TransactionType: 'SignerListSet', SignerQuorum: 1, SignerEntries: [entry(a.classicAddress, 0)] }),
    ).toBe('temBAD_WEIGHT');
    h.expect(
      w,
      {
        TransactionType: 'SignerListSet',
        SignerQuorum: 2,
        SignerEntries: [entry(a.classicAddress, 1), entry(b.classicAddress, 1), entry(c.classicAddress, 2)],
      },
      'tesSUCCESS',
    );
    expect(h.account(w.classicAddress)!.OwnerCount).toBe(1);
    const list = h.node.current().read(signerListKey(w.classicAddress))!;
    expect(list.SignerQuorum).toBe(2);
    expect(list.Flags).toBe(0x00010000);

    const multi = (signers: Wallet[], fee: string, extra: Record<string, unknown> = {}) => {
      const tx = {
        TransactionType: 'Payment',
        Account: w.classicAddress,
        Destination: GENESIS_ADDRESS,
        Amount: '1000',
        Fee: fee,
        Sequence: h.nextSeq(w.classicAddress),
        SigningPubKey: '',
        ...extra,
      } as unknown as SubmittableTransaction;
      return multisign(signers.map((s) => s.sign(tx, true).tx_blob));
    };
    expect(h.node.submit(multi([a, b], '20')).engine_result).toBe('telINSUF_FEE_P');
    expect(h.node.submit(multi([a], '30')).engine_result).toBe('tefBAD_QUORUM');
    expect(h.node.submit(multi([a, Wallet.generate()], '30')).engine_result).toBe('tefBAD_SIGNATURE');
    const ok = h.node.submit(multi([a, b], '30'));
    expect(ok.engine_result).toBe('tesSUCCESS');
    expect(h.node.submit(multi([c], '20', { Amount: '2000' })).engine_result).toBe('tesSUCCESS');

    // A bad signature is a local-check failure.
    const tampered = multi([a, b], '30', { Amount: '5' }).replace(/.{8}$/, '00000000');
    expect(h.node.submit(tampered).rpcError?.error).toBe('invalidTransaction');

    // With a signer list the master key can be disabled; the list still signs.
    h.expect(w, { TransactionType: 'AccountSet', SetFlag: 4 }, 'tesSUCCESS');
    expect(h.node.submit(multi([a, b], '30', { Amount: '3000' })).engine_result).toBe('tesSUCCESS');

    // Accounts without a list cannot be multi-signed.
    const other = h.wallet();
    const tx = {
      TransactionType: 'Payment',
      Account: other.classicAddress,
      Destination: GENESIS_ADDRESS,
      Amount: '1',
      Fee: '30',
      Sequence: h.nextSeq(other.classicAddress),
      SigningPubKey: '',
    } as unknown as SubmittableTransaction;
    expect(h.node.submit(multisign([a.sign(tx, true).tx_blob, b.sign(tx, true).tx_blob])).engine_result).toBe(
      'tefNOT_MULTI_SIGNING',
    );
  });

  it('removes the signer list and its reserve', () => {
    const h = new Harness();
    const w = h.wallet();
    const a = Wallet.generate();
    h.expect(
      w,
      {
        TransactionType: 'SignerListSet',
        SignerQuorum: 1,
        SignerEntries: [{ SignerEntry: { Account: a.classicAddress, SignerWeight: 1 } }],
      },
      'tesSUCCESS',
    );
    h.expect(w, { TransactionType: 'SignerListSet', SignerQuorum: 0 }, 'tesSUCCESS');
    expect(h.account(w.classicAddress)!.OwnerCount).toBe(0);
    expect(h.node.current().read(signerListKey(w.classicAddress))).toBeUndefined();
  });
});
