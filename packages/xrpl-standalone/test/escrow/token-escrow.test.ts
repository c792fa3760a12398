// Token escrow (XLS-85, TokenEscrow) through xrpl.js. Expected values are worked out from rippled's
// rules (Escrow.cpp): escrowed tokens leave the holder's trust line for the issuer at creation (so
// the holder cannot spend them) and are paid by the issuer to the receiver on finish or cancel;
// the issuer's transfer rate is captured at creation and charged out of the escrowed amount
// (the lower of the captured and the current rate; never on cancel); the issuer must allow
// trust-line locking and cannot escrow its own token. Closes are one second apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalanceChanges, Wallet, type TransactionMetadata } from 'xrpl';
import { decodeAccountID } from 'ripple-address-codec';
import { DEFAULT_AMENDMENTS } from '../../src/core/amendments';
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
  type Dex,
} from '../dex/helpers';
import {
  accountRoot,
  cancelTx,
  closeTime,
  escrowObjects,
  finishTx,
  linesTo,
  passTime,
  startEscrowLedger,
  stateHashes,
} from './helpers';

const escrowsOf = (address: string) => escrowObjects(dex, address);

const LSF_ALLOW_TRUST_LINE_LOCKING = 0x40000000;
const ASF_ALLOW_TRUST_LINE_LOCKING = 17;
const TF_SETF_AUTH = 0x00010000;
const TF_SET_FREEZE = 0x00100000;
const TF_CLEAR_FREEZE = 0x00200000;
const TF_SET_DEEP_FREEZE = 0x00400000;

let dex: Dex;

beforeAll(async () => {
  dex = await startEscrowLedger();
}, 60_000);

afterAll(async () => dex?.close());

const usd = (gw: Wallet, value: string) => ({ currency: 'USD', issuer: gw.address, value });

const accountData = (address: string) => accountRoot(dex, address);

async function lockingIssuer(): Promise<Wallet> {
  const gw = await issuer(dex);
  await expectResult(dex, gw, { TransactionType: 'AccountSet', SetFlag: ASF_ALLOW_TRUST_LINE_LOCKING });
  return gw;
}

/** A funded wallet whose account ID sorts below (-1) or above (1) `than`'s. */
async function walletSorting(than: Wallet, side: -1 | 1): Promise<Wallet> {
  for (;;) {
    const w = Wallet.generate();
    if (Buffer.compare(decodeAccountID(w.address), decodeAccountID(than.address)) === side) {
      await expectResult(dex, genesis, {
        TransactionType: 'Payment',
        Destination: w.address,
        Amount: '100000000',
      });
      return w;
    }
  }
}

interface World {
  gw: Wallet;
  alice: Wallet;
  bob: Wallet;
}

/**
 * A locking issuer (rate in 1e9 units, if any), alice holding `holds` USD and bob with a USD
 * trust line (`bobLimit`), each with 100 XRP.
 */
async function world(holds: string, opts: { rate?: number; bobLimit?: string } = {}): Promise<World> {
  const gw = await lockingIssuer();
  if (opts.rate !== undefined)
    await expectResult(dex, gw, { TransactionType: 'AccountSet', TransferRate: opts.rate });
  const alice = await funded(dex, 100);
  const bob = await funded(dex, 100);
  await issue(dex, gw, alice, 'USD', holds);
  await trust(dex, bob, gw, 'USD', opts.bobLimit);
  return { gw, alice, bob };
}

async function gatewayBalances(gw: Wallet): Promise<Record<string, unknown>> {
  return request(dex, { command: 'gateway_balances', account: gw.address, ledger_index: 'validated' });
}

/** Create an escrow of `value` USD from `owner` and return its sequence. */
async function escrowTokens(
  owner: Wallet,
  gw: Wallet,
  value: string,
  dest: Wallet,
  times: { finishAfter?: number; cancelAfter?: number },
  expected = 'tesSUCCESS',
): Promise<number> {
  const seq = (await accountData(owner.address)).Sequence;
  const tx: Record<string, unknown> = {
    TransactionType: 'EscrowCreate',
    Amount: usd(gw, value),
    Destination: dest.address,
  };
  if (times.finishAfter !== undefined) tx.FinishAfter = times.finishAfter;
  if (times.cancelAfter !== undefined) tx.CancelAfter = times.cancelAfter;
  await expectResult(dex, owner, tx, expected);
  return seq;
}

describe('token escrow', () => {
  it('needs the issuer to allow trust-line locking, and the issuer cannot escrow its own token', async () => {
    const gw = await issuer(dex);
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    await issue(dex, gw, alice, 'USD', '100');
    const t = await closeTime(dex);
    await escrowTokens(alice, gw, '10', bob, { finishAfter: t + 50 }, 'tecNO_PERMISSION');
    await expectResult(dex, gw, { TransactionType: 'AccountSet', SetFlag: ASF_ALLOW_TRUST_LINE_LOCKING });
    expect((await accountData(gw.address)).Flags & LSF_ALLOW_TRUST_LINE_LOCKING).toBe(
      LSF_ALLOW_TRUST_LINE_LOCKING,
    );
    await escrowTokens(gw, gw, '10', alice, { finishAfter: t + 50 }, 'tecNO_PERMISSION');
    await escrowTokens(alice, gw, '10', bob, { finishAfter: t + 50 });
    expect(await tokenBalance(dex, alice.address, gw.address, 'USD')).toBe('90');
  });

  it("takes the escrowed tokens off the holder's line: the locked part cannot be spent, gateway_balances shows it as locked", async () => {
    const { gw, alice, bob } = await world('1000');
    expect((await accountData(alice.address)).OwnerCount).toBe(1);
    const t = await closeTime(dex);
    const seq = await escrowTokens(alice, gw, '600', bob, { finishAfter: t + 10, cancelAfter: t + 20 });
    // The escrow's reserve: the trust line plus the escrow.
    expect((await accountData(alice.address)).OwnerCount).toBe(2);
    expect(await tokenBalance(dex, alice.address, gw.address, 'USD')).toBe('400');
    const [escrow] = await escrowsOf(alice.address);
    expect(escrow).toMatchObject({
      Amount: usd(gw, '600'),
      OwnerNode: '0',
      DestinationNode: '0',
      IssuerNode: '0',
    });
    expect(escrow?.TransferRate).toBeUndefined();
    // Listed under the issuer too (IssuerNode) and under the destination.
    expect((await escrowsOf(gw.address)).map((e) => e.index)).toEqual([escrow?.index]);
    expect((await escrowsOf(bob.address)).map((e) => e.index)).toEqual([escrow?.index]);
    expect(await gatewayBalances(gw)).toMatchObject({ obligations: { USD: '400' }, locked: { USD: '600' } });

    // Spending more than the 400 left on the line fails; the 400 can be spent.
    await expectResult(
      dex,
      alice,
      { TransactionType: 'Payment', Destination: bob.address, Amount: usd(gw, '500') },
      'tecPATH_PARTIAL',
    );
    await expectResult(dex, alice, {
      TransactionType: 'Payment',
      Destination: bob.address,
      Amount: usd(gw, '400'),
    });
    await escrowTokens(alice, gw, '1', bob, { finishAfter: t + 50 }, 'tecINSUFFICIENT_FUNDS');
    expect(await tokenBalance(dex, alice.address, gw.address, 'USD')).toBe('0');

    // Parent close t + 10 or earlier: the lock holds (tecNO_PERMISSION), then bob finishes.
    expect(await closeTime(dex)).toBeLessThanOrEqual(t + 10);
    await expectResult(dex, bob, finishTx(alice, seq), 'tecNO_PERMISSION');
    await passTime(dex, t + 10);
    const done = await expectResult(dex, bob, finishTx(alice, seq));
    expect(await tokenBalance(dex, bob.address, gw.address, 'USD')).toBe('1000');
    expect((await accountData(alice.address)).OwnerCount).toBe(1);
    expect(await escrowsOf(gw.address)).toEqual([]);
    const balances = await gatewayBalances(gw);
    expect(balances).toMatchObject({ obligations: { USD: '1000' } });
    expect(balances.locked).toBeUndefined();
    const bobChanges = getBalanceChanges(done.meta as unknown as TransactionMetadata).find(
      (c) => c.account === bob.address,
    );
    expect(bobChanges?.balances).toContainEqual({ currency: 'USD', issuer: gw.address, value: '600' });
  });

  it('works from either side of the trust line (holder the low or the high account)', async () => {
    const gw = await lockingIssuer();
    // One holder whose account ID sorts below the issuer's and one above it: their balances sit
    // on opposite sides of their lines (positive for a low holder, negative for a high one).
    const low = await walletSorting(gw, -1);
    const high = await walletSorting(gw, 1);
    await issue(dex, gw, low, 'USD', '300');
    await issue(dex, gw, high, 'USD', '300');
    const t = await closeTime(dex);
    const fromLow = await escrowTokens(low, gw, '120', high, { finishAfter: t + 2 });
    const fromHigh = await escrowTokens(high, gw, '45', low, { finishAfter: t + 2 });
    expect(await tokenBalance(dex, low.address, gw.address, 'USD')).toBe('180');
    expect(await tokenBalance(dex, high.address, gw.address, 'USD')).toBe('255');
    await passTime(dex, t + 2);
    await expectResult(dex, high, finishTx(low, fromLow));
    await expectResult(dex, low, finishTx(high, fromHigh));
    expect(await tokenBalance(dex, low.address, gw.address, 'USD')).toBe('225');
    expect(await tokenBalance(dex, high.address, gw.address, 'USD')).toBe('375');
  });

  it('returns the tokens to the owner on cancel after CancelAfter, and not before', async () => {
    const { gw, alice, bob } = await world('1000');
    const t = await closeTime(dex);
    const seq = await escrowTokens(alice, gw, '250', bob, { finishAfter: t + 1, cancelAfter: t + 3 });
    expect(await tokenBalance(dex, alice.address, gw.address, 'USD')).toBe('750');
    // Parent closes t + 1, t + 2, t + 3: not yet after CancelAfter.
    await expectResult(dex, bob, cancelTx(alice, seq), 'tecNO_PERMISSION');
    await expectResult(dex, bob, cancelTx(alice, seq), 'tecNO_PERMISSION');
    await expectResult(dex, bob, cancelTx(alice, seq), 'tecNO_PERMISSION');
    // Parent close t + 4: too late to finish, time to cancel.
    await expectResult(dex, bob, finishTx(alice, seq), 'tecNO_PERMISSION');
    const cancelled = await expectResult(dex, bob, cancelTx(alice, seq));
    expect(await tokenBalance(dex, alice.address, gw.address, 'USD')).toBe('1000');
    expect(await tokenBalance(dex, bob.address, gw.address, 'USD')).toBe('0');
    expect((await accountData(alice.address)).OwnerCount).toBe(1);
    expect(await escrowsOf(gw.address)).toEqual([]);
    const aliceChanges = getBalanceChanges(cancelled.meta as unknown as TransactionMetadata).find(
      (c) => c.account === alice.address,
    );
    expect(aliceChanges?.balances).toEqual([{ currency: 'USD', issuer: gw.address, value: '250' }]);
  });

  it('captures the transfer rate at creation and takes the fee out of the escrow (lower current rate wins; never on cancel)', async () => {
    const { gw, alice, bob } = await world('10000', { rate: 1_250_000_000 });
    const t = await closeTime(dex);
    const e1 = await escrowTokens(alice, gw, '125', bob, { finishAfter: t + 3 });
    const e2 = await escrowTokens(alice, gw, '125', bob, { finishAfter: t + 3 });
    const e3 = await escrowTokens(alice, gw, '125', bob, { finishAfter: t + 3, cancelAfter: t + 6 });
    // No fee at creation: 10,000 - 3 × 125.
    expect(await tokenBalance(dex, alice.address, gw.address, 'USD')).toBe('9625');
    for (const e of await escrowsOf(alice.address)) expect(e.TransferRate).toBe(1_250_000_000);
    // A higher rate later does not apply: 125 / 1.25 = 100 reaches bob.
    await expectResult(dex, gw, { TransactionType: 'AccountSet', TransferRate: 1_260_000_000 });
    await expectResult(dex, bob, finishTx(alice, e1));
    expect(await tokenBalance(dex, bob.address, gw.address, 'USD')).toBe('100');
    // Cancel pays no fee even while the issuer charges one (parent close past t + 6 by now).
    await passTime(dex, t + 6);
    await expectResult(dex, bob, cancelTx(alice, e3));
    expect(await tokenBalance(dex, alice.address, gw.address, 'USD')).toBe('9750');
    // A lower rate now (none: 1.0) applies instead of the captured one: all 125 reach bob.
    await expectResult(dex, gw, { TransactionType: 'AccountSet', TransferRate: 0 });
    await expectResult(dex, bob, finishTx(alice, e2));
    expect(await tokenBalance(dex, bob.address, gw.address, 'USD')).toBe('225');
  });

  it('rounds the transfer fee as rippled (divideRound up): 10 at 1.3 delivers 7.692307692307693', async () => {
    const { gw, alice, bob } = await world('100', { rate: 1_300_000_000 });
    const t = await closeTime(dex);
    const seq = await escrowTokens(alice, gw, '10', bob, { finishAfter: t + 1 });
    await passTime(dex, t + 1);
    // 10 / 1.3 rounded up at 16 digits is 7.692307692307693: the fee 10 - that is
    // 2.307692307692307, and 10 - 2.307692307692307 reaches bob.
    await expectResult(dex, bob, finishTx(alice, seq));
    expect(await tokenBalance(dex, bob.address, gw.address, 'USD')).toBe('7.692307692307693');
  });

  it('checks RequireAuth for the owner and the destination', async () => {
    const gw = await issuer(dex);
    await expectResult(dex, gw, { TransactionType: 'AccountSet', SetFlag: 2 });
    await expectResult(dex, gw, { TransactionType: 'AccountSet', SetFlag: ASF_ALLOW_TRUST_LINE_LOCKING });
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    const carol = await funded(dex, 100);
    const authorize = (holder: Wallet) =>
      expectResult(dex, gw, {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: holder.address, value: '0' },
        Flags: TF_SETF_AUTH,
      });
    await authorize(alice);
    await issue(dex, gw, alice, 'USD', '100');
    await trust(dex, bob, gw, 'USD');
    const t = await closeTime(dex);
    // bob's line is not authorized; carol has none.
    await escrowTokens(alice, gw, '10', bob, { finishAfter: t + 50 }, 'tecNO_AUTH');
    await escrowTokens(alice, gw, '10', carol, { finishAfter: t + 50 }, 'tecNO_LINE');
    await authorize(bob);
    await escrowTokens(alice, gw, '10', bob, { finishAfter: t + 50 });
  });

  it('refuses frozen holders and destinations at creation; a deep freeze (not a plain one) stops the finish', async () => {
    const gw = await lockingIssuer();
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    await issue(dex, gw, alice, 'USD', '1000');
    await issue(dex, gw, bob, 'USD', '1000');
    const freezeLine = (holder: Wallet, flags: number) =>
      expectResult(dex, gw, {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: holder.address, value: '0' },
        Flags: flags,
      });
    const t = await closeTime(dex);
    await freezeLine(alice, TF_SET_FREEZE);
    await escrowTokens(alice, gw, '10', bob, { finishAfter: t + 100 }, 'tecFROZEN');
    await freezeLine(alice, TF_CLEAR_FREEZE);
    await freezeLine(bob, TF_SET_FREEZE);
    await escrowTokens(alice, gw, '10', bob, { finishAfter: t + 100 }, 'tecFROZEN');
    await freezeLine(bob, TF_CLEAR_FREEZE);
    await expectResult(dex, gw, { TransactionType: 'AccountSet', SetFlag: 7 });
    await escrowTokens(alice, gw, '10', bob, { finishAfter: t + 100 }, 'tecFROZEN');
    await expectResult(dex, gw, { TransactionType: 'AccountSet', ClearFlag: 7 });
    const t2 = await closeTime(dex);
    const e1 = await escrowTokens(alice, gw, '10', bob, { finishAfter: t2 + 3 });
    const e2 = await escrowTokens(alice, gw, '20', bob, { finishAfter: t2 + 3 });
    const e3 = await escrowTokens(alice, gw, '5', bob, { finishAfter: t2 + 3 });
    await freezeLine(bob, TF_SET_FREEZE);
    await passTime(dex, t2 + 3);
    await expectResult(dex, bob, finishTx(alice, e1));
    // A global freeze does not stop a finish either.
    await expectResult(dex, gw, { TransactionType: 'AccountSet', SetFlag: 7 });
    await expectResult(dex, bob, finishTx(alice, e3));
    await expectResult(dex, gw, { TransactionType: 'AccountSet', ClearFlag: 7 });
    await freezeLine(bob, TF_SET_FREEZE | TF_SET_DEEP_FREEZE);
    await expectResult(dex, bob, finishTx(alice, e2), 'tecFROZEN');
    expect(await tokenBalance(dex, bob.address, gw.address, 'USD')).toBe('1015');
  });

  it('refuses an escrow whose amount would be lost next to a huge balance (tecPRECISION_LOSS)', async () => {
    const gw = await lockingIssuer();
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    await trust(dex, alice, gw, 'USD', '100000000000000000');
    await expectResult(dex, gw, {
      TransactionType: 'Payment',
      Destination: alice.address,
      Amount: usd(gw, '10000000000000000'),
    });
    const t = await closeTime(dex);
    // rippled canAdd(1e16, 1): 1 - 1e16 rounds to -1e16 in 16 digits, so (1 - 1e16) + 1e16 = 0
    // and the round trip is off by 100%.
    await escrowTokens(alice, gw, '1', bob, { finishAfter: t + 50 }, 'tecPRECISION_LOSS');
    // 1e16 - 1000 = 9999999999999000 fits 16 digits: exact both ways.
    await escrowTokens(alice, gw, '1000', bob, { finishAfter: t + 50 });
  });

  it('creates the missing trust line when the destination finishes itself, and needs one otherwise', async () => {
    const gw = await lockingIssuer();
    const alice = await funded(dex, 100);
    const dave = await funded(dex, 100);
    await issue(dex, gw, alice, 'USD', '100');
    const t = await closeTime(dex);
    const seq = await escrowTokens(alice, gw, '50', dave, { finishAfter: t + 1 });
    await passTime(dex, t + 1);
    await expectResult(dex, alice, finishTx(alice, seq), 'tecNO_LINE');
    await expectResult(dex, dave, finishTx(alice, seq));
    const lines = await linesTo(dex, dave, gw);
    expect(lines).toEqual([
      expect.objectContaining({ currency: 'USD', balance: '50', limit: '0', account: gw.address }),
    ]);
    expect((await accountData(dave.address)).OwnerCount).toBe(1);

    // Without the reserve for that line (1 XRP + 0.2 XRP - 1 drop before the fee): no line.
    const poor = Wallet.generate();
    await expectResult(dex, genesis, {
      TransactionType: 'Payment',
      Destination: poor.address,
      Amount: '1199999',
    });
    const t2 = await closeTime(dex);
    const seq2 = await escrowTokens(alice, gw, '5', poor, { finishAfter: t2 + 1 });
    await passTime(dex, t2 + 1);
    expect(await submitRaw(dex, poor, finishTx(alice, seq2))).toBe('tecNO_LINE_INSUF_RESERVE');
  });

  it("checks the destination's limit unless the destination itself finishes", async () => {
    const { gw, alice, bob } = await world('100', { bobLimit: '15' });
    const t = await closeTime(dex);
    const seq = await escrowTokens(alice, gw, '20', bob, { finishAfter: t + 1 });
    await passTime(dex, t + 1);
    await expectResult(dex, alice, finishTx(alice, seq), 'tecLIMIT_EXCEEDED');
    await expectResult(dex, bob, finishTx(alice, seq));
    const lines = await linesTo(dex, bob, gw);
    expect(lines[0]).toMatchObject({ balance: '20', limit: '15' });
  });

  it('burns the tokens when the issuer is the destination', async () => {
    const gw = await lockingIssuer();
    const alice = await funded(dex, 100);
    await issue(dex, gw, alice, 'USD', '1000');
    const t = await closeTime(dex);
    const seq = await escrowTokens(alice, gw, '100', gw, { finishAfter: t + 1 });
    const [escrow] = await escrowsOf(gw.address);
    // Under the issuer as destination, not a second time as issuer.
    expect(escrow).toMatchObject({ DestinationNode: '0' });
    expect(escrow?.IssuerNode).toBeUndefined();
    await passTime(dex, t + 1);
    await expectResult(dex, gw, finishTx(alice, seq));
    expect(await tokenBalance(dex, alice.address, gw.address, 'USD')).toBe('900');
    const balances = await gatewayBalances(gw);
    expect(balances).toMatchObject({ obligations: { USD: '900' } });
    expect(balances.locked).toBeUndefined();
  });

  it("can be cleared like rippled's SetAccount does: no new escrows, existing ones still finish", async () => {
    const { gw, alice, bob } = await world('100');
    const t = await closeTime(dex);
    const seq = await escrowTokens(alice, gw, '10', bob, { finishAfter: t + 1 });
    await expectResult(dex, gw, { TransactionType: 'AccountSet', ClearFlag: ASF_ALLOW_TRUST_LINE_LOCKING });
    expect((await accountData(gw.address)).Flags & LSF_ALLOW_TRUST_LINE_LOCKING).toBe(0);
    await escrowTokens(alice, gw, '10', bob, { finishAfter: t + 50 }, 'tecNO_PERMISSION');
    await passTime(dex, t + 1);
    await expectResult(dex, bob, finishTx(alice, seq));
    expect(await tokenBalance(dex, bob.address, gw.address, 'USD')).toBe('10');
  });
});

describe('token escrow objects in the state tree', () => {
  it("hash as xrpl.js hashes them (IssuerNode, TransferRate, Condition serialized as rippled's fields)", async () => {
    const gw = await lockingIssuer();
    await expectResult(dex, gw, { TransactionType: 'AccountSet', TransferRate: 1_100_000_000 });
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    await issue(dex, gw, alice, 'USD', '100');
    const t = await closeTime(dex);
    await escrowTokens(alice, gw, '12.5', bob, { finishAfter: t + 40, cancelAfter: t + 80 });
    await expectResult(dex, alice, {
      TransactionType: 'EscrowCreate',
      Amount: '1000000',
      Destination: bob.address,
      Condition: 'A0258020E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855810100',
      CancelAfter: t + 90,
      SourceTag: 3,
    });
    const escrows = await escrowsOf(alice.address);
    expect(escrows.map((e) => [e.IssuerNode, e.TransferRate, e.SourceTag])).toEqual(
      expect.arrayContaining([
        ['0', 1_100_000_000, undefined],
        [undefined, undefined, 3],
      ]),
    );
    const { computed, ledger } = await stateHashes(dex);
    expect(computed).toBe(ledger);
  });
});

describe('token escrow without the TokenEscrow amendment', () => {
  it('refuses token amounts (temBAD_AMOUNT) and ignores asfAllowTrustLineLocking', async () => {
    const old = await startEscrowLedger(DEFAULT_AMENDMENTS.filter((a) => a !== 'TokenEscrow'));
    try {
      const gw = await issuer(old);
      const alice = await funded(old, 100);
      await issue(old, gw, alice, 'USD', '100');
      await expectResult(old, gw, { TransactionType: 'AccountSet', SetFlag: ASF_ALLOW_TRUST_LINE_LOCKING });
      const info = await old.client.request({ command: 'account_info', account: gw.address });
      expect(info.result.account_data.Flags & LSF_ALLOW_TRUST_LINE_LOCKING).toBe(0);
      const t = await closeTime(old);
      await expectResult(
        old,
        alice,
        {
          TransactionType: 'EscrowCreate',
          Amount: usd(gw, '1'),
          Destination: gw.address,
          FinishAfter: t + 5,
        },
        'temBAD_AMOUNT',
      );
    } finally {
      await old.close();
    }
  });
});
