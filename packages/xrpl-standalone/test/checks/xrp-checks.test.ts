// XRP Checks through xrpl.js (rippled CreateCheck/CashCheck/CancelCheck.cpp): the Check object and
// its two directory links, the writer's owner reserve, cashing an exact Amount or at least
// DeliverMin (the writer may spend the reserve the Check frees), expiration against the parent
// ledger's close time, who may cancel, and the refusals. Fees: xrpl.js autofills 12 drops (10-drop
// base fee); reserves are 1 XRP + 0.2 XRP per owned object. Closes are one second apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { DEFAULT_AMENDMENTS } from '../../src/core/amendments';
import { expectResult, funded, genesis, request, submitRaw, xrpBalance, type Dex } from '../dex/helpers';
import { accountRoot, closeTime, fundedDrops, startEscrowLedger, stateHashes } from '../escrow/helpers';
import {
  affected,
  cancel,
  cashAtLeast,
  cashExact,
  checkCreate,
  checkIndex,
  checksOf,
  ledgerEntry,
} from './helpers';

let dex: Dex;

beforeAll(async () => {
  dex = await startEscrowLedger();
}, 60_000);

afterAll(async () => dex?.close());

const root = (address: string) => accountRoot(dex, address);
const FEE = 12;
const XRP = 1_000_000;

describe('XRP checks', () => {
  it('creates the Check with both directory links and one owner reserve, and cashes the exact Amount', async () => {
    const writer = await funded(dex, 1000);
    const dest = await funded(dex, 1000);
    const other = await funded(dex, 1000);
    const seq = (await root(writer.address)).Sequence;
    const t0 = await closeTime(dex);
    const invoice = 'AB'.repeat(32);
    const created = await expectResult(
      dex,
      writer,
      checkCreate(dest, '50000000', {
        SourceTag: 7,
        DestinationTag: 9,
        InvoiceID: invoice,
        Expiration: t0 + 100,
      }),
    );
    // 1000 XRP - the 12-drop fee; one more owned object.
    expect(await root(writer.address)).toMatchObject({ Balance: String(1000 * XRP - FEE), OwnerCount: 1 });
    // The destination owns nothing: the reserve is the writer's.
    expect(await root(dest.address)).toMatchObject({ Balance: String(1000 * XRP), OwnerCount: 0 });

    const index = checkIndex(writer.address, seq);
    // The fields the transaction gave the Check (its non-default fields).
    const given = {
      Account: writer.address,
      Destination: dest.address,
      SendMax: '50000000',
      Sequence: seq,
      SourceTag: 7,
      DestinationTag: 9,
      InvoiceID: invoice,
      Expiration: t0 + 100,
    };
    expect(await ledgerEntry(dex, { check: index })).toMatchObject({
      LedgerEntryType: 'Check',
      Flags: 0,
      ...given,
      OwnerNode: '0',
      DestinationNode: '0',
      PreviousTxnID: created.hash,
      index,
    });
    expect((await checksOf(dex, writer.address)).map((c) => c.index)).toEqual([index]);
    expect((await checksOf(dex, dest.address)).map((c) => c.index)).toEqual([index]);
    // rippled's metadata: the new Check without its default (zero) fields, and the destination's
    // root threaded to this transaction without any change of its own.
    const node = affected(created.meta, 'CreatedNode', 'Check', index);
    expect(node?.NewFields).toEqual(given);
    const destRoot = (created.meta?.AffectedNodes as Array<Record<string, Record<string, unknown>>>).find(
      (n) =>
        n.ModifiedNode?.LedgerEntryType === 'AccountRoot' &&
        (n.ModifiedNode.FinalFields as { Account: string }).Account === dest.address,
    );
    expect(destRoot?.ModifiedNode?.PreviousFields).toBeUndefined();
    expect((await root(dest.address)) as unknown as Record<string, unknown>).toMatchObject({
      PreviousTxnID: created.hash,
    });
    // The Check serializes as the codec does: xrpl.js's state-tree hash matches the ledger's.
    const hashes = await stateHashes(dex);
    expect(hashes.computed).toBe(hashes.ledger);

    // simulate answers what cashing would do, and changes nothing.
    const sim = await request<{ engine_result: string; meta: Record<string, unknown> }>(dex, {
      command: 'simulate',
      tx_json: { ...cashExact(index, '20000000'), Account: dest.address },
    });
    expect(sim.engine_result).toBe('tesSUCCESS');
    expect(sim.meta.delivered_amount).toBe('20000000');
    expect(affected(sim.meta, 'DeletedNode', 'Check', index)).toBeDefined();
    expect(await checksOf(dex, dest.address)).toHaveLength(1);

    // More than SendMax: the Check stays; someone other than the destination may not cash it,
    // nor cancel it before it expires.
    await expectResult(dex, dest, cashExact(index, '50000001'), 'tecPATH_PARTIAL');
    await expectResult(dex, other, cashExact(index, '1'), 'tecNO_PERMISSION');
    await expectResult(dex, other, cancel(index), 'tecNO_PERMISSION');

    const cashed = await expectResult(dex, dest, cashExact(index, '30000000'));
    // The destination paid two fees and received exactly 30 XRP; the writer paid 30 XRP and
    // got its reserve back.
    expect(await root(dest.address)).toMatchObject({ Balance: String(1000 * XRP - 2 * FEE + 30 * XRP) });
    expect(await root(writer.address)).toMatchObject({
      Balance: String(1000 * XRP - FEE - 30 * XRP),
      OwnerCount: 0,
    });
    expect(cashed.meta?.delivered_amount).toBe('30000000');
    expect(cashed.meta?.DeliveredAmount).toBeUndefined();
    expect(affected(cashed.meta, 'DeletedNode', 'Check', index)?.FinalFields).toMatchObject({
      Account: writer.address,
      Destination: dest.address,
      SendMax: '50000000',
    });
    expect(await checksOf(dex, writer.address)).toEqual([]);
    expect(await checksOf(dex, dest.address)).toEqual([]);
    // Gone: cashing or cancelling it again finds nothing.
    await expectResult(dex, dest, cashExact(index, '1'), 'tecNO_ENTRY');
    await expectResult(dex, writer, cancel(index), 'tecNO_ENTRY');
  });

  it('cashes at least DeliverMin: as much as SendMax and the writer’s balance above its reserve allow', async () => {
    // 1.5 XRP; after the create fee 1,499,988 drops with one owned object.
    const writer = await fundedDrops(dex, '1500000');
    const dest = await funded(dex, 100);
    const seq = (await root(writer.address)).Sequence;
    await expectResult(dex, writer, checkCreate(dest, String(XRP)));
    const index = checkIndex(writer.address, seq);
    // Available = (1,499,988 - 1.2 XRP reserve) + the 0.2 XRP the Check frees = 499,988 drops.
    await expectResult(dex, dest, cashExact(index, '499989'), 'tecPATH_PARTIAL');
    await expectResult(dex, dest, cashAtLeast(index, '499989'), 'tecPATH_PARTIAL');
    const cashed = await expectResult(dex, dest, cashAtLeast(index, '100000'));
    // max(100,000, min(SendMax 1 XRP, 1,499,988 - 1 XRP reserve without the Check)) = 499,988.
    expect(cashed.meta?.DeliveredAmount).toBe('499988');
    expect(cashed.meta?.delivered_amount).toBe('499988');
    expect(await root(writer.address)).toMatchObject({ Balance: String(XRP), OwnerCount: 0 });
    expect(await xrpBalance(dex, dest.address)).toBe(BigInt(100 * XRP - 3 * FEE + 499_988));
  });

  it('expires at the parent ledger’s close time: then it cannot be cashed and anyone may cancel it', async () => {
    const writer = await funded(dex, 100);
    const dest = await funded(dex, 100);
    const other = await funded(dex, 100);
    const t = await closeTime(dex);
    // Submitted into the ledger whose parent closed at t: an Expiration of t has already passed.
    await expectResult(dex, writer, checkCreate(dest, '1000000', { Expiration: t }), 'tecEXPIRED');
    expect(await submitRaw(dex, writer, checkCreate(dest, '1000000', { Expiration: 0 }))).toBe(
      'temBAD_EXPIRATION',
    );
    const seq = (await root(writer.address)).Sequence;
    const t1 = await closeTime(dex);
    await expectResult(dex, writer, checkCreate(dest, '1000000', { Expiration: t1 + 2 }));
    const index = checkIndex(writer.address, seq);
    // Parent close t1 + 1: not expired, so only the writer or the destination may cancel.
    await expectResult(dex, other, cancel(index), 'tecNO_PERMISSION');
    // Parent close t1 + 2 = Expiration: expired (rippled's hasExpired is >=).
    await expectResult(dex, dest, cashExact(index, '1000000'), 'tecEXPIRED');
    expect(await checksOf(dex, writer.address)).toHaveLength(1);
    await expectResult(dex, other, cancel(index));
    expect(await checksOf(dex, writer.address)).toEqual([]);
    // The writer paid three fees (tecEXPIRED, temBAD_EXPIRATION costs nothing, the create) and
    // has its reserve back; the destination paid for its expired cash.
    expect(await root(writer.address)).toMatchObject({ Balance: String(100 * XRP - 2 * FEE), OwnerCount: 0 });
    expect(await xrpBalance(dex, dest.address)).toBe(BigInt(100 * XRP - FEE));
    expect(await xrpBalance(dex, other.address)).toBe(BigInt(100 * XRP - 2 * FEE));
  });

  it('lets the writer and the destination cancel before expiry, releasing the reserve', async () => {
    const writer = await funded(dex, 100);
    const dest = await funded(dex, 100);
    const seq = (await root(writer.address)).Sequence;
    await expectResult(dex, writer, checkCreate(dest, '1000000'));
    await expectResult(dex, writer, checkCreate(dest, '2000000'));
    expect(await root(writer.address)).toMatchObject({ OwnerCount: 2 });
    await expectResult(dex, writer, cancel(checkIndex(writer.address, seq)));
    await expectResult(dex, dest, cancel(checkIndex(writer.address, seq + 1)));
    expect(await root(writer.address)).toMatchObject({ Balance: String(100 * XRP - 3 * FEE), OwnerCount: 0 });
    expect(await checksOf(dex, dest.address)).toEqual([]);
    await expectResult(dex, dest, cashExact(checkIndex(writer.address, seq), '1'), 'tecNO_ENTRY');
  });

  it('refuses malformed and impossible checks with rippled’s codes', async () => {
    const writer = await funded(dex, 100);
    const dest = await funded(dex, 100);
    expect(await submitRaw(dex, writer, checkCreate(writer, '1000000'))).toBe('temREDUNDANT');
    expect(await submitRaw(dex, writer, checkCreate(dest, '0'))).toBe('temBAD_AMOUNT');
    const badCurrency = {
      currency: '0000000000000000000000005852500000000000',
      issuer: dest.address,
      value: '1',
    };
    expect(await submitRaw(dex, writer, checkCreate(dest, badCurrency))).toBe('temBAD_CURRENCY');
    await expectResult(dex, writer, checkCreate(Wallet.generate(), '1000000'), 'tecNO_DST');

    // RequireDestTag: a Check needs a DestinationTag (and keeps it, so it can be cashed).
    const tagged = await funded(dex, 100);
    await expectResult(dex, tagged, { TransactionType: 'AccountSet', SetFlag: 1 });
    await expectResult(dex, writer, checkCreate(tagged, '1000000'), 'tecDST_TAG_NEEDED');
    const seq = (await root(writer.address)).Sequence;
    await expectResult(dex, writer, checkCreate(tagged, '1000000', { DestinationTag: 1 }));
    await expectResult(dex, tagged, cashExact(checkIndex(writer.address, seq), '1000000'));

    // DisallowIncomingCheck (asfDisallowIncomingCheck = 13).
    const closed = await funded(dex, 100);
    await expectResult(dex, closed, { TransactionType: 'AccountSet', SetFlag: 13 });
    await expectResult(dex, writer, checkCreate(closed, '1000000'), 'tecNO_PERMISSION');

    // CheckCash takes exactly one of Amount and DeliverMin, of the Check's currency.
    const seq2 = (await root(writer.address)).Sequence;
    await expectResult(dex, writer, checkCreate(dest, '1000000'));
    const id = checkIndex(writer.address, seq2);
    expect(await submitRaw(dex, dest, { ...cashExact(id, '1'), DeliverMin: '1' })).toBe('temMALFORMED');
    expect(await submitRaw(dex, dest, { TransactionType: 'CheckCash', CheckID: id })).toBe('temMALFORMED');
    expect(await submitRaw(dex, dest, cashExact(id, '0'))).toBe('temBAD_AMOUNT');
    expect(
      await submitRaw(dex, dest, cashExact(id, { currency: 'USD', issuer: writer.address, value: '1' })),
    ).toBe('temMALFORMED');
  });

  it('checks the owner reserve against the balance before the fee', async () => {
    // 1,199,999 drops < 1 XRP + 0.2 XRP: refused, the fee is still charged.
    const poor = await fundedDrops(dex, '1199999');
    await expectResult(dex, poor, checkCreate(genesis, '1'), 'tecINSUFFICIENT_RESERVE');
    expect(await root(poor.address)).toMatchObject({ Balance: String(1_199_999 - FEE), OwnerCount: 0 });
    // Exactly 1.2 XRP before the fee is enough: the fee may dip into the reserve.
    const exact = await fundedDrops(dex, '1200000');
    await expectResult(dex, exact, checkCreate(genesis, '1'));
    expect(await root(exact.address)).toMatchObject({ Balance: String(1_200_000 - FEE), OwnerCount: 1 });
  });

  it('lets a DepositAuth account cash a check it could not be paid directly', async () => {
    const writer = await funded(dex, 100);
    const dest = await funded(dex, 100);
    await expectResult(dex, dest, { TransactionType: 'AccountSet', SetFlag: 9 });
    await expectResult(
      dex,
      writer,
      { TransactionType: 'Payment', Destination: dest.address, Amount: String(50 * XRP) },
      'tecNO_PERMISSION',
    );
    const seq = (await root(writer.address)).Sequence;
    await expectResult(dex, writer, checkCreate(dest, String(50 * XRP)));
    await expectResult(dex, dest, cashExact(checkIndex(writer.address, seq), String(50 * XRP)));
    // The destination paid the AccountSet and the cash fees.
    expect(await xrpBalance(dex, dest.address)).toBe(BigInt(150 * XRP - 2 * FEE));
  });

  it('keys a Check made with a Ticket by the ticket’s sequence', async () => {
    const writer = await funded(dex, 100);
    const dest = await funded(dex, 100);
    const seq = (await root(writer.address)).Sequence;
    await expectResult(dex, writer, { TransactionType: 'TicketCreate', TicketCount: 1 });
    // The ticket is the sequence after the TicketCreate's own.
    const ticket = seq + 1;
    await expectResult(dex, writer, checkCreate(dest, '1000000', { TicketSequence: ticket, Sequence: 0 }));
    const index = checkIndex(writer.address, ticket);
    expect(await ledgerEntry(dex, { check: index })).toMatchObject({ Sequence: ticket });
    // The ticket's reserve went, the Check's came: still one owned object.
    expect(await root(writer.address)).toMatchObject({ OwnerCount: 1, Sequence: seq + 2 });
  });

  it('blocks AccountDelete of the writer and of the destination while the Check exists', async () => {
    const writer = await funded(dex, 100);
    const dest = await funded(dex, 100);
    const seq = (await root(writer.address)).Sequence;
    await expectResult(dex, writer, checkCreate(dest, '1000000'));
    // AccountDelete needs the account's Sequence 256 ledgers behind.
    for (let i = 0; i < 256; i += 1) dex.ledger.closeLedger();
    // Signed without xrpl.js's autofill, which refuses such deletions itself; the fee of an
    // AccountDelete is one owner reserve (0.2 XRP).
    const del = { TransactionType: 'AccountDelete', Destination: genesis.address };
    const reserveFee = String(XRP / 5);
    expect(await submitRaw(dex, writer, del, reserveFee)).toBe('tecHAS_OBLIGATIONS');
    expect(await submitRaw(dex, dest, del, reserveFee)).toBe('tecHAS_OBLIGATIONS');
    await expectResult(dex, writer, cancel(checkIndex(writer.address, seq)));
    expect(await submitRaw(dex, writer, del, reserveFee)).toBe('tesSUCCESS');
    const gone = await request<{ error?: string }>(dex, {
      command: 'account_info',
      account: writer.address,
    }).catch((e: { data?: { error?: string } }) => e.data ?? {});
    expect(gone.error).toBe('actNotFound');
  });
});

describe('fixCleanup3_3_0', () => {
  let fixed: Dex;
  beforeAll(async () => {
    fixed = await startEscrowLedger([...DEFAULT_AMENDMENTS, 'fixCleanup3_3_0']);
  }, 60_000);
  afterAll(async () => fixed?.close());

  it('refuses an all-zero CheckID in preflight (temMALFORMED) where mainnet answers tecNO_ENTRY', async () => {
    const zero = '0'.repeat(64);
    const a = await funded(fixed, 100);
    expect(await submitRaw(fixed, a, cashExact(zero, '1'))).toBe('temMALFORMED');
    expect(await submitRaw(fixed, a, cancel(zero))).toBe('temMALFORMED');
    const b = await funded(dex, 100);
    expect(await submitRaw(dex, b, cashExact(zero, '1'))).toBe('tecNO_ENTRY');
    expect(await submitRaw(dex, b, cancel(zero))).toBe('tecNO_ENTRY');
  });
});
