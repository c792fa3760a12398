// Transactions with a Delegate field through xrpl.js (rippled Transactor: preflight1,
// checkPermission, checkSign, checkFee, payFee): the delegate signs — master key, regular key or
// its own signer list — and pays the fee; the transaction consumes the account's Sequence (or
// Ticket) and moves the account's balances. Granular permissions admit a fixed subset of a type
// (flags and fields), with Payment's and TrustSet's own rules. Refusals are
// terNO_DELEGATE_PERMISSION (nothing charged, nothing in the ledger) or tem codes. Fees: 12 drops
// (xrpl.js autofill, 10-drop base), reserves 1 XRP + 0.2 XRP per object.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multisign, Wallet, type SubmittableTransaction } from 'xrpl';
import { DEFAULT_AMENDMENTS } from '../../src/core/amendments';
import {
  expectResult,
  funded,
  genesis,
  issuer,
  request,
  submitRaw,
  tokenBalance,
  trust,
  usd,
  xrpBalance,
  type Dex,
} from '../dex/helpers';
import { accountRoot, linesTo, startEscrowLedger, type AccountRootJson } from '../escrow/helpers';
import { checkIndex, checksOf } from '../checks/helpers';
import { delegatesOf, grant, sendFor, sendRawFor } from './helpers';

let dex: Dex;

beforeAll(async () => {
  dex = await startEscrowLedger();
}, 60_000);

afterAll(async () => dex?.close());

const FEE = 12;
const XRP = 1_000_000;
const TF_SETF_AUTH = 0x00010000;
const TF_SET_FREEZE = 0x00100000;
const pay = (to: Wallet, amount: unknown) => ({
  TransactionType: 'Payment',
  Destination: to.address,
  Amount: amount,
});

/** Both accounts' state, to show a refused transaction changed nothing. */
async function snapshot(a: Wallet, b: Wallet): Promise<[AccountRootJson, AccountRootJson]> {
  return [await accountRoot(dex, a.address), await accountRoot(dex, b.address)];
}

describe('delegated transactions', () => {
  it('are signed and paid for by the delegate, with the account’s sequence and the account’s balances', async () => {
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    const carol = await funded(dex, 100);
    await expectResult(dex, alice, grant(bob, ['Payment']));
    const [a0, b0] = await snapshot(alice, bob);
    const r = await sendFor(dex, bob, alice, pay(carol, String(XRP)));
    expect(r.result).toBe('tesSUCCESS');
    expect(r.tx).toMatchObject({
      Account: alice.address,
      Delegate: bob.address,
      SigningPubKey: bob.publicKey,
    });
    // Alice pays exactly 1 XRP and uses a sequence; Bob pays exactly the fee and keeps his.
    expect(await accountRoot(dex, alice.address)).toMatchObject({
      Balance: String(BigInt(a0.Balance) - BigInt(XRP)),
      Sequence: a0.Sequence + 1,
    });
    expect(await accountRoot(dex, bob.address)).toMatchObject({
      Balance: String(BigInt(b0.Balance) - BigInt(FEE)),
      Sequence: b0.Sequence,
    });
    expect(await xrpBalance(dex, carol.address)).toBe(BigInt(101 * XRP));
    // A tec still costs the delegate the fee and the account a sequence, and nothing else.
    const [a1, b1] = await snapshot(alice, bob);
    expect((await sendFor(dex, bob, alice, pay(carol, String(1000 * XRP)))).result).toBe(
      'tecUNFUNDED_PAYMENT',
    );
    expect(await accountRoot(dex, alice.address)).toMatchObject({
      Balance: a1.Balance,
      Sequence: a1.Sequence + 1,
    });
    expect(await accountRoot(dex, bob.address)).toMatchObject({
      Balance: String(BigInt(b1.Balance) - BigInt(FEE)),
    });
  });

  it('are refused without the permission, to oneself, for types that cannot be delegated, with the wrong key or fee', async () => {
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    const carol = await funded(dex, 100);
    const before = await snapshot(alice, bob);
    // No Delegate entry at all.
    expect((await sendFor(dex, bob, alice, pay(carol, '1000'))).result).toBe('terNO_DELEGATE_PERMISSION');
    await expectResult(dex, alice, grant(bob, ['Payment']));
    // A permission for another type.
    const offer = { TransactionType: 'OfferCreate', TakerGets: '1000', TakerPays: usd(carol, '1') };
    expect((await sendFor(dex, bob, alice, offer)).result).toBe('terNO_DELEGATE_PERMISSION');
    // Delegate = Account, and a type no permission can cover.
    expect((await sendRawFor(dex, alice, alice, pay(carol, '1000'))).result).toBe('temBAD_SIGNER');
    expect(
      (await sendRawFor(dex, bob, alice, { TransactionType: 'SetRegularKey', RegularKey: bob.address }))
        .result,
    ).toBe('temINVALID');
    // Signed by the account instead of the delegate.
    expect((await sendFor(dex, alice, alice, pay(carol, '1000'), bob)).result).toBe('tefBAD_AUTH');
    // A fee above the delegate's balance (100 XRP).
    expect((await sendRawFor(dex, bob, alice, pay(carol, '1000'), String(200 * XRP))).result).toBe(
      'terINSUF_FEE_B',
    );
    // Nothing was charged but Alice's DelegateSet.
    const after = await snapshot(alice, bob);
    expect(after[0]).toMatchObject({ Balance: String(BigInt(before[0].Balance) - BigInt(FEE)) });
    expect(after[1]).toMatchObject({ Balance: before[1].Balance, Sequence: before[1].Sequence });
  });

  it('accept the delegate’s regular key and its signer list (the fee counts its signatures)', async () => {
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    const carol = await funded(dex, 100);
    await expectResult(dex, alice, grant(bob, ['Payment']));
    const bobKey = Wallet.generate();
    await expectResult(dex, bob, { TransactionType: 'SetRegularKey', RegularKey: bobKey.classicAddress });
    expect((await sendFor(dex, bobKey, alice, pay(carol, '1000'), bob)).result).toBe('tesSUCCESS');

    const s1 = Wallet.generate();
    const s2 = Wallet.generate();
    await expectResult(dex, bob, {
      TransactionType: 'SignerListSet',
      SignerQuorum: 2,
      SignerEntries: [
        { SignerEntry: { Account: s1.classicAddress, SignerWeight: 1 } },
        { SignerEntry: { Account: s2.classicAddress, SignerWeight: 1 } },
      ],
    });
    const bobBefore = await xrpBalance(dex, bob.address);
    const prepared = await dex.client.autofill(
      {
        ...pay(carol, '2000'),
        Account: alice.address,
        Delegate: bob.address,
      } as unknown as SubmittableTransaction,
      2,
    );
    // 10 drops per signature plus the base: 10 × (1 + 2) = 30 (xrpl.js adds its cushion).
    const fee = BigInt(prepared.Fee as string);
    expect(fee >= 30n).toBe(true);
    const blob = multisign([s1.sign(prepared, true).tx_blob, s2.sign(prepared, true).tx_blob]);
    const res = await dex.client.request({ command: 'submit', tx_blob: blob });
    expect(res.result.engine_result).toBe('tesSUCCESS');
    dex.ledger.closeLedger();
    expect(await xrpBalance(dex, bob.address)).toBe(bobBefore - fee);
    // The delegate may not sign in its own list.
    const own = await dex.client
      .request({
        command: 'submit',
        tx_blob: multisign([bob.sign(prepared, true).tx_blob, s1.sign(prepared, true).tx_blob]),
      })
      .catch((e: { data?: { error?: string; error_exception?: string } }) => e.data);
    expect(own).toMatchObject({
      error: 'invalidTransaction',
      error_exception: 'fails local checks: Invalid multisigner.',
    });
  });

  it('use the account’s Tickets', async () => {
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    await expectResult(dex, alice, grant(bob, ['Payment']));
    const seq = (await accountRoot(dex, alice.address)).Sequence;
    await expectResult(dex, alice, { TransactionType: 'TicketCreate', TicketCount: 1 });
    expect(await accountRoot(dex, alice.address)).toMatchObject({ OwnerCount: 2 });
    const r = await sendFor(dex, bob, alice, {
      ...pay(genesis, '1000'),
      TicketSequence: seq + 1,
      Sequence: 0,
    });
    expect(r.result).toBe('tesSUCCESS');
    expect(await accountRoot(dex, alice.address)).toMatchObject({ OwnerCount: 1, Sequence: seq + 2 });
  });

  it('create the account’s own objects: a Check written for it holds its reserve', async () => {
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    const carol = await funded(dex, 100);
    await expectResult(dex, alice, grant(bob, ['CheckCreate']));
    const seq = (await accountRoot(dex, alice.address)).Sequence;
    const r = await sendFor(dex, bob, alice, {
      TransactionType: 'CheckCreate',
      Destination: carol.address,
      SendMax: '5000000',
    });
    expect(r.result).toBe('tesSUCCESS');
    const [check] = await checksOf(dex, carol.address);
    expect(check).toMatchObject({ Account: alice.address, index: checkIndex(alice.address, seq) });
    expect(await accountRoot(dex, alice.address)).toMatchObject({ OwnerCount: 2 });
  });

  it('with AccountSet’s granular permissions set only the fields granted, never a flag', async () => {
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    await expectResult(dex, alice, grant(bob, ['AccountDomainSet']));
    const domain = Buffer.from('example.com').toString('hex').toUpperCase();
    const emailHash = '10000000002000000000300000000012';
    expect((await sendFor(dex, bob, alice, { TransactionType: 'AccountSet', Domain: domain })).result).toBe(
      'tesSUCCESS',
    );
    expect((await accountRoot(dex, alice.address)) as unknown as Record<string, unknown>).toMatchObject({
      Domain: domain,
    });
    for (const tx of [
      { EmailHash: emailHash },
      { Domain: domain, SetFlag: 8 },
      { TransferRate: 1_100_000_000 },
      { Domain: domain, Flags: 0x00010000 },
    ]) {
      expect((await sendFor(dex, bob, alice, { TransactionType: 'AccountSet', ...tx })).result).toBe(
        'terNO_DELEGATE_PERMISSION',
      );
    }
    await expectResult(dex, alice, grant(bob, ['AccountDomainSet', 'AccountEmailHashSet']));
    const both = { TransactionType: 'AccountSet', Domain: domain, EmailHash: emailHash };
    expect((await sendFor(dex, bob, alice, both)).result).toBe('tesSUCCESS');
    expect((await accountRoot(dex, alice.address)) as unknown as Record<string, unknown>).toMatchObject({
      EmailHash: emailHash,
    });
  });

  it('with TrustlineAuthorize authorize an existing line, without changing its limit, qualities or freeze', async () => {
    const gw = await issuer(dex);
    await expectResult(dex, gw, { TransactionType: 'AccountSet', SetFlag: 2 });
    const bob = await funded(dex, 100);
    const alice = await funded(dex, 100);
    const carol = await funded(dex, 100);
    await trust(dex, alice, gw, 'USD');
    await expectResult(dex, gw, grant(bob, ['TrustlineAuthorize']));
    const line = (holder: Wallet, value = '0', extra: Record<string, unknown> = {}) => ({
      TransactionType: 'TrustSet',
      LimitAmount: { currency: 'USD', issuer: holder.address, value },
      ...extra,
    });
    for (const tx of [
      line(alice, '5', { Flags: TF_SETF_AUTH }),
      line(alice, '0', { Flags: TF_SETF_AUTH, QualityIn: 1_000_000_000 }),
      line(alice, '0', { Flags: TF_SET_FREEZE }),
      line(carol, '0', { Flags: TF_SETF_AUTH }),
    ]) {
      expect((await sendFor(dex, bob, gw, tx)).result).toBe('terNO_DELEGATE_PERMISSION');
    }
    expect((await sendFor(dex, bob, gw, line(alice, '0', { Flags: TF_SETF_AUTH }))).result).toBe(
      'tesSUCCESS',
    );
    const [aliceLine] = await linesTo(dex, alice, gw);
    expect(aliceLine).toMatchObject({ peer_authorized: true, limit: '1000000000', limit_peer: '0' });
  });

  it('with PaymentMint and PaymentBurn send direct token payments that issue or redeem, nothing else', async () => {
    const gw = await issuer(dex);
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    const carol = await funded(dex, 100);
    await trust(dex, alice, gw, 'USD');
    await trust(dex, carol, gw, 'USD');
    await expectResult(dex, gw, grant(bob, ['PaymentMint']));
    expect((await sendFor(dex, bob, gw, pay(alice, usd(gw, '10')))).result).toBe('tesSUCCESS');
    expect(await tokenBalance(dex, alice.address, gw.address, 'USD')).toBe('10');
    for (const tx of [
      pay(alice, String(XRP)),
      { ...pay(alice, usd(gw, '1')), SendMax: '2000000' },
      { ...pay(alice, usd(gw, '1')), Paths: [[{ account: carol.address }]] },
    ]) {
      expect((await sendRawFor(dex, bob, gw, tx)).result).toBe('terNO_DELEGATE_PERMISSION');
    }

    await expectResult(dex, alice, grant(bob, ['PaymentBurn']));
    // Alice holds the issuer's tokens: paying them back redeems.
    expect((await sendFor(dex, bob, alice, pay(gw, usd(gw, '4')))).result).toBe('tesSUCCESS');
    expect(await tokenBalance(dex, alice.address, gw.address, 'USD')).toBe('6');
    // To a third account the issuer is neither side: not a burn.
    expect((await sendFor(dex, bob, alice, pay(carol, usd(gw, '1')))).result).toBe(
      'terNO_DELEGATE_PERMISSION',
    );
    expect(await tokenBalance(dex, carol.address, gw.address, 'USD')).toBe('0');
  });

  it('go away with either account: AccountDelete removes the Delegate entries from both directories', async () => {
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    const carol = await funded(dex, 100);
    await expectResult(dex, alice, grant(bob, ['Payment']));
    await expectResult(dex, alice, grant(carol, ['Payment']));
    expect(await accountRoot(dex, alice.address)).toMatchObject({ OwnerCount: 2 });
    for (let i = 0; i < 256; i += 1) dex.ledger.closeLedger();
    const del = { TransactionType: 'AccountDelete', Destination: genesis.address };
    // Deleting the delegate releases the granting account's reserve.
    expect(await submitRaw(dex, bob, del, String(XRP / 5))).toBe('tesSUCCESS');
    expect(await accountRoot(dex, alice.address)).toMatchObject({ OwnerCount: 1 });
    expect(await delegatesOf(dex, alice.address)).toHaveLength(1);
    // Deleting the granting account removes its grant from the delegate's directory.
    expect(await submitRaw(dex, alice, del, String(XRP / 5))).toBe('tesSUCCESS');
    expect(await delegatesOf(dex, carol.address)).toEqual([]);
  });

  it('simulate like submit: the delegate’s fee, the account’s payment, and the refusal without permission', async () => {
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    const dave = await funded(dex, 100);
    await expectResult(dex, alice, grant(bob, ['Payment']));
    const sim = (account: Wallet, delegate: Wallet) =>
      request<{
        engine_result: string;
        meta?: { AffectedNodes: Array<Record<string, Record<string, unknown>>> };
      }>(dex, {
        command: 'simulate',
        tx_json: { ...pay(genesis, '1000'), Account: account.address, Delegate: delegate.address },
      });
    const ok = await sim(alice, bob);
    expect(ok.engine_result).toBe('tesSUCCESS');
    const changed = Object.fromEntries(
      (ok.meta?.AffectedNodes ?? [])
        .map(
          (n) =>
            n.ModifiedNode as {
              FinalFields: { Account: string; Balance: string };
              PreviousFields?: { Balance?: string };
            },
        )
        .filter((n) => n?.PreviousFields?.Balance !== undefined)
        .map((n) => [
          n.FinalFields.Account,
          BigInt(n.FinalFields.Balance) - BigInt(n.PreviousFields?.Balance as string),
        ]),
    );
    // simulate fills the base fee (10 drops): Bob pays it, Alice the 1,000 drops.
    expect(changed).toEqual({ [alice.address]: -1000n, [bob.address]: -10n, [genesis.address]: 1000n });
    expect((await sim(alice, dave)).engine_result).toBe('terNO_DELEGATE_PERMISSION');
  });
});

describe('fixCleanup3_4_0', () => {
  let fixed: Dex;
  beforeAll(async () => {
    fixed = await startEscrowLedger([...DEFAULT_AMENDMENTS, 'fixCleanup3_4_0']);
  }, 60_000);
  afterAll(async () => fixed?.close());

  /** Alice holds 6 of the issuer's USD and lets Bob burn them. */
  async function holder(d: Dex) {
    const gw = await issuer(d);
    const alice = await funded(d, 100);
    const bob = await funded(d, 100);
    await trust(d, alice, gw, 'USD');
    await expectResult(d, gw, {
      TransactionType: 'Payment',
      Destination: alice.address,
      Amount: usd(gw, '6'),
    });
    await expectResult(d, alice, grant(bob, ['PaymentBurn']));
    return { gw, alice, bob };
  }

  it('stops a delegated burn at the balance held (before: the permission passes and the payment falls short)', async () => {
    const withFix = await holder(fixed);
    const over = pay(withFix.gw, usd(withFix.gw, '10'));
    expect((await sendFor(fixed, withFix.bob, withFix.alice, over)).result).toBe('terNO_DELEGATE_PERMISSION');
    expect(
      (await sendFor(fixed, withFix.bob, withFix.alice, pay(withFix.gw, usd(withFix.gw, '6')))).result,
    ).toBe('tesSUCCESS');
    const without = await holder(dex);
    expect(
      (await sendFor(dex, without.bob, without.alice, pay(without.gw, usd(without.gw, '10')))).result,
    ).toBe('tecPATH_PARTIAL');
  });
});
