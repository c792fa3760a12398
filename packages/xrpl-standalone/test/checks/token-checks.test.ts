// Token Checks through xrpl.js (rippled CashCheck.cpp with CheckCashMakesTrustLine): the payment
// engine moves the tokens from the writer (SendMax bounds what it spends, the issuer's transfer
// fee included) to the destination, whose trust line is created when missing (its reserve from the
// destination's balance before the fee) and whose limit does not apply; freezes, RequireAuth and
// the issuer's own checks. Fees are 12 drops, reserves 1 XRP + 0.2 XRP per object.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Wallet } from 'xrpl';
import {
  expectResult,
  funded,
  genesis,
  issue,
  issuer,
  request,
  submitRaw,
  tokenBalance,
  trust,
  usd,
  xrpBalance,
  type Dex,
} from '../dex/helpers';
import { accountRoot, fundedDrops, linesTo, startEscrowLedger } from '../escrow/helpers';
import { affected, cashAtLeast, cashExact, checkCreate, checkIndex } from './helpers';

let dex: Dex;

beforeAll(async () => {
  dex = await startEscrowLedger();
}, 60_000);

afterAll(async () => dex?.close());

const FEE = 12;
const XRP = 1_000_000;
const TF_SET_FREEZE = 0x00100000;
const TF_CLEAR_FREEZE = 0x00200000;
const TF_SETF_AUTH = 0x00010000;

/** Write a check and return its ID. */
async function write(from: Wallet, to: Wallet, sendMax: unknown, extra: Record<string, unknown> = {}) {
  const seq = (await accountRoot(dex, from.address)).Sequence;
  await expectResult(dex, from, checkCreate(to, sendMax, extra));
  return checkIndex(from.address, seq);
}

const balanceOf = (holder: Wallet, iss: Wallet) => tokenBalance(dex, holder.address, iss.address, 'USD');

/** The issuer sets or clears the freeze of a holder's line. */
const freeze = (iss: Wallet, holder: Wallet, flag: number) =>
  expectResult(dex, iss, {
    TransactionType: 'TrustSet',
    LimitAmount: { currency: 'USD', issuer: holder.address, value: '0' },
    Flags: flag,
  });

describe('token checks', () => {
  it('creates the destination’s trust line when it cashes, with the reserve and limit 0 on its side', async () => {
    const gw = await issuer(dex);
    const alice = await funded(dex, 100);
    await issue(dex, gw, alice, 'USD', '500');
    const bob = await funded(dex, 100);
    const id = await write(alice, bob, usd(gw, '100'));
    // The line, its holder-side settings and its reserve come with the cash.
    const cashed = await expectResult(dex, bob, cashExact(id, usd(gw, '100')));
    expect(await balanceOf(bob, gw)).toBe('100');
    expect(await balanceOf(alice, gw)).toBe('400');
    const [line] = await linesTo(dex, bob, gw);
    // Bob has no DefaultRipple, so his side is NoRipple; the issuer's DefaultRipple leaves its own clear.
    expect(line).toMatchObject({ balance: '100', limit: '0', limit_peer: '0', no_ripple: true });
    expect(line?.no_ripple_peer).toBeUndefined();
    expect(await accountRoot(dex, bob.address)).toMatchObject({
      Balance: String(100 * XRP - FEE),
      OwnerCount: 1,
    });
    // The writer's Check reserve is back; its trust line remains.
    expect(await accountRoot(dex, alice.address)).toMatchObject({ OwnerCount: 1 });
    expect(cashed.meta?.delivered_amount).toEqual(usd(gw, '100'));
    expect(cashed.meta?.DeliveredAmount).toEqual(usd(gw, '100'));
    expect(affected(cashed.meta, 'CreatedNode', 'RippleState')).toBeDefined();
    expect(affected(cashed.meta, 'DeletedNode', 'Check', id)).toBeDefined();
  });

  it('needs the reserve for a new line from the destination’s balance before the fee', async () => {
    const gw = await issuer(dex);
    const alice = await funded(dex, 100);
    await issue(dex, gw, alice, 'USD', '50');
    // 1,199,999 drops < 1 XRP + 0.2 XRP for the line.
    const carol = await fundedDrops(dex, '1199999');
    const id = await write(alice, carol, usd(gw, '10'));
    await expectResult(dex, carol, cashExact(id, usd(gw, '10')), 'tecNO_LINE_INSUF_RESERVE');
    // 1,199,999 - 12 + 13 = 1,200,000: exactly the reserve with one more object.
    await expectResult(dex, genesis, {
      TransactionType: 'Payment',
      Destination: carol.address,
      Amount: '13',
    });
    await expectResult(dex, carol, cashExact(id, usd(gw, '10')));
    expect(await balanceOf(carol, gw)).toBe('10');
    expect(await xrpBalance(dex, carol.address)).toBe(1_200_000n - BigInt(FEE));
  });

  it('ignores the destination’s trust line limit and leaves it unchanged', async () => {
    const gw = await issuer(dex);
    const alice = await funded(dex, 100);
    await issue(dex, gw, alice, 'USD', '500');
    const dave = await funded(dex, 100);
    await trust(dex, dave, gw, 'USD', '10');
    const id = await write(alice, dave, usd(gw, '100'));
    const cashed = await expectResult(dex, dave, cashExact(id, usd(gw, '100')));
    const [line] = await linesTo(dex, dave, gw);
    expect(line).toMatchObject({ balance: '100', limit: '10' });
    // Only the balance of the line changed.
    const node = affected(cashed.meta, 'ModifiedNode', 'RippleState') as { PreviousFields?: object };
    expect(Object.keys(node?.PreviousFields ?? {})).toEqual(['Balance']);
  });

  it('charges the issuer’s transfer fee to the writer within SendMax', async () => {
    const gw = await issuer(dex);
    // TransferRate 1.25: 1,250,000,000 / 1,000,000,000.
    await expectResult(dex, gw, { TransactionType: 'AccountSet', TransferRate: 1_250_000_000 });
    const alice = await funded(dex, 100);
    await issue(dex, gw, alice, 'USD', '1000');
    const bob = await funded(dex, 100);
    await trust(dex, bob, gw, 'USD');
    const id = await write(alice, bob, usd(gw, '125'));
    // Delivering 125 would cost 125 × 1.25 = 156.25 > SendMax 125.
    await expectResult(dex, bob, cashExact(id, usd(gw, '125')), 'tecPATH_PARTIAL');
    // 100 delivered costs exactly 125.
    await expectResult(dex, bob, cashExact(id, usd(gw, '100')));
    expect(await balanceOf(alice, gw)).toBe('875');
    expect(await balanceOf(bob, gw)).toBe('100');
    // DeliverMin: as much as SendMax buys, 125 / 1.25 = 100.
    const id2 = await write(alice, bob, usd(gw, '125'));
    const cashed = await expectResult(dex, bob, cashAtLeast(id2, usd(gw, '90')));
    expect(cashed.meta?.DeliveredAmount).toEqual(usd(gw, '100'));
    expect(await balanceOf(alice, gw)).toBe('750');
    expect(await balanceOf(bob, gw)).toBe('200');
  });

  it('delivers at least DeliverMin up to what the writer holds', async () => {
    const gw = await issuer(dex);
    const alice = await funded(dex, 100);
    await issue(dex, gw, alice, 'USD', '40');
    const bob = await funded(dex, 100);
    const id = await write(alice, bob, usd(gw, '100'));
    // Asking for more than the writer holds is refused before anything runs.
    await expectResult(dex, bob, cashAtLeast(id, usd(gw, '41')), 'tecPATH_PARTIAL');
    const cashed = await expectResult(dex, bob, cashAtLeast(id, usd(gw, '10')));
    expect(cashed.meta?.DeliveredAmount).toEqual(usd(gw, '40'));
    expect(await balanceOf(alice, gw)).toBe('0');
    expect(await balanceOf(bob, gw)).toBe('40');
  });

  it('refuses frozen lines: the writer’s (frozen by the issuer), the destination’s, a global freeze', async () => {
    const gw = await issuer(dex);
    const alice = await funded(dex, 100);
    await issue(dex, gw, alice, 'USD', '100');
    const bob = await funded(dex, 100);
    await trust(dex, bob, gw, 'USD');
    // The issuer froze the writer's line.
    await freeze(gw, alice, TF_SET_FREEZE);
    await expectResult(dex, alice, checkCreate(bob, usd(gw, '10')), 'tecFROZEN');
    await freeze(gw, alice, TF_CLEAR_FREEZE);
    // The destination froze its own line to the issuer.
    await expectResult(dex, bob, {
      TransactionType: 'TrustSet',
      LimitAmount: usd(gw, '1000000000'),
      Flags: TF_SET_FREEZE,
    });
    await expectResult(dex, alice, checkCreate(bob, usd(gw, '10')), 'tecFROZEN');
    await expectResult(dex, bob, {
      TransactionType: 'TrustSet',
      LimitAmount: usd(gw, '1000000000'),
      Flags: TF_CLEAR_FREEZE,
    });
    // Frozen after the Check was written: the destination's line (tecFROZEN) or the writer's,
    // whose tokens then count as none (tecPATH_PARTIAL).
    const id = await write(alice, bob, usd(gw, '10'));
    await freeze(gw, bob, TF_SET_FREEZE);
    await expectResult(dex, bob, cashExact(id, usd(gw, '10')), 'tecFROZEN');
    await freeze(gw, bob, TF_CLEAR_FREEZE);
    await freeze(gw, alice, TF_SET_FREEZE);
    await expectResult(dex, bob, cashExact(id, usd(gw, '10')), 'tecPATH_PARTIAL');
    await freeze(gw, alice, TF_CLEAR_FREEZE);
    await expectResult(dex, bob, cashExact(id, usd(gw, '10')));
    // A global freeze stops new checks of the issuer's currency.
    await expectResult(dex, gw, { TransactionType: 'AccountSet', SetFlag: 7 });
    await expectResult(dex, alice, checkCreate(bob, usd(gw, '10')), 'tecFROZEN');
  });

  it('requires the issuer’s authorization of the destination’s line under RequireAuth', async () => {
    const gw = await issuer(dex);
    await expectResult(dex, gw, { TransactionType: 'AccountSet', SetFlag: 2 });
    const alice = await funded(dex, 100);
    await trust(dex, alice, gw, 'USD');
    await expectResult(dex, gw, {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: 'USD', issuer: alice.address, value: '0' },
      Flags: TF_SETF_AUTH,
    });
    await expectResult(dex, gw, {
      TransactionType: 'Payment',
      Destination: alice.address,
      Amount: usd(gw, '50'),
    });
    const bob = await funded(dex, 100);
    const id = await write(alice, bob, usd(gw, '10'));
    // No line: one could only be created unauthorized.
    await expectResult(dex, bob, cashExact(id, usd(gw, '10')), 'tecNO_AUTH');
    await trust(dex, bob, gw, 'USD');
    await expectResult(dex, bob, cashExact(id, usd(gw, '10')), 'tecNO_AUTH');
    await expectResult(dex, gw, {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: 'USD', issuer: bob.address, value: '0' },
      Flags: TF_SETF_AUTH,
    });
    await expectResult(dex, bob, cashExact(id, usd(gw, '10')));
    expect(await balanceOf(bob, gw)).toBe('10');
  });

  it('lets the issuer write checks of its own currency and take its currency back', async () => {
    const gw = await issuer(dex);
    const bob = await funded(dex, 100);
    // The issuer's funds in its own currency are unlimited: cashing mints.
    const id = await write(gw, bob, usd(gw, '1000000'));
    await expectResult(dex, bob, cashExact(id, usd(gw, '50')));
    expect(await balanceOf(bob, gw)).toBe('50');
    // A check to the issuer: the tokens go back to it (no line of its own is needed).
    const id2 = await write(bob, gw, usd(gw, '30'));
    const gwOwned = (await accountRoot(dex, gw.address)).OwnerCount;
    await expectResult(dex, gw, cashExact(id2, usd(gw, '30')));
    expect(await balanceOf(bob, gw)).toBe('20');
    expect(await accountRoot(dex, gw.address)).toMatchObject({ OwnerCount: gwOwned });
  });

  it('refuses a cash in another currency or of another issuer (temMALFORMED)', async () => {
    const gw = await issuer(dex);
    const other = await issuer(dex);
    const alice = await funded(dex, 100);
    await issue(dex, gw, alice, 'USD', '10');
    const bob = await funded(dex, 100);
    const id = await write(alice, bob, usd(gw, '10'));
    expect(await submitRaw(dex, bob, cashExact(id, usd(other, '1')))).toBe('temMALFORMED');
    expect(
      await submitRaw(dex, bob, cashExact(id, { currency: 'EUR', issuer: gw.address, value: '1' })),
    ).toBe('temMALFORMED');
    expect(await submitRaw(dex, bob, cashExact(id, '1'))).toBe('temMALFORMED');
    const tx = await request<{ account_objects: unknown[] }>(dex, {
      command: 'account_objects',
      account: bob.address,
      type: 'check',
    });
    expect(tx.account_objects).toHaveLength(1);
  });
});
