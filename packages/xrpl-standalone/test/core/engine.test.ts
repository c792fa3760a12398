import { describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { encode, decode } from 'ripple-binary-codec';
import { Harness, genesis } from './helpers';
import { GENESIS_ADDRESS } from '../../src/core/ledger-node';

const pay = (to: string, drops = '1000000') => ({
  TransactionType: 'Payment',
  Destination: to,
  Amount: drops,
});

describe('transaction engine checks', () => {
  it('holds terPRE_SEQ transactions and applies them at the next close', () => {
    const h = new Harness();
    const w = h.wallet();
    const seq = h.nextSeq(w.classicAddress);
    const later = h.expect(w, pay(GENESIS_ADDRESS), 'terPRE_SEQ', { seq: seq + 1 });
    expect(later.queued).toBe(true);
    expect(later.applied).toBe(false);
    h.expect(w, pay(GENESIS_ADDRESS), 'tesSUCCESS', { seq });
    h.close();
    expect(h.node.heldCount).toBe(0);
    const rec = h.node.txByHash(later.hash)!;
    expect(rec.meta.TransactionResult).toBe('tesSUCCESS');
    expect(rec.ledgerIndex).toBe(4);
    expect(h.nextSeq(w.classicAddress)).toBe(seq + 2);
  });

  it('resolves a chain of held transactions in one close, in sequence order', () => {
    const h = new Harness();
    const w = h.wallet();
    const seq = h.nextSeq(w.classicAddress);
    const third = h.expect(w, pay(GENESIS_ADDRESS, '3000000'), 'terPRE_SEQ', { seq: seq + 2 });
    const second = h.expect(w, pay(GENESIS_ADDRESS, '2000000'), 'terPRE_SEQ', { seq: seq + 1 });
    h.expect(w, pay(GENESIS_ADDRESS), 'tesSUCCESS', { seq });
    h.close();
    expect(h.node.txByHash(second.hash)!.meta.TransactionIndex).toBe(0);
    expect(h.node.txByHash(third.hash)!.meta.TransactionIndex).toBe(1);
    expect(h.node.heldCount).toBe(0);
  });

  it('gives up on held transactions after a few ledgers', () => {
    const h = new Harness();
    const w = h.wallet();
    h.expect(w, pay(GENESIS_ADDRESS), 'terPRE_SEQ', { seq: h.nextSeq(w.classicAddress) + 5 });
    for (let i = 0; i < 5; i++) h.close();
    expect(h.node.heldCount).toBe(1);
    h.close();
    expect(h.node.heldCount).toBe(0);
  });

  it('drops held transactions whose LastLedgerSequence has passed', () => {
    const h = new Harness();
    const w = h.wallet();
    const seq = h.nextSeq(w.classicAddress);
    h.expect(w, { ...pay(GENESIS_ADDRESS), LastLedgerSequence: 3 }, 'terPRE_SEQ', { seq: seq + 1 });
    expect(h.node.heldCount).toBe(1);
    h.close();
    expect(h.node.heldCount).toBe(0);
  });

  it('rejects past sequences, expired LastLedgerSequence and low fees without applying', () => {
    const h = new Harness();
    const w = h.wallet();
    const before = h.balance(w.classicAddress);
    h.expect(w, pay(GENESIS_ADDRESS), 'tefPAST_SEQ', { seq: 1 });
    h.expect(w, { ...pay(GENESIS_ADDRESS), LastLedgerSequence: 2 }, 'tefMAX_LEDGER');
    const low = h.expect(w, pay(GENESIS_ADDRESS), 'telINSUF_FEE_P', { fee: '9' });
    expect(low.applied).toBe(false);
    expect(low.kept).toBe(false);
    h.expect(w, pay(GENESIS_ADDRESS), 'terINSUF_FEE_B', { fee: (before + 1n).toString() });
    expect(h.balance(w.classicAddress)).toBe(before);
  });

  it('claims the fee and consumes the sequence on tec results', () => {
    const h = new Harness();
    const w = h.wallet(2_000_000n);
    const seq = h.nextSeq(w.classicAddress);
    const r = h.expect(w, pay(GENESIS_ADDRESS, '1500000'), 'tecUNFUNDED_PAYMENT');
    expect(r.applied).toBe(true);
    expect(h.balance(w.classicAddress)).toBe(2_000_000n - 10n);
    expect(h.nextSeq(w.classicAddress)).toBe(seq + 1);
    expect(h.node.txByHash(r.hash)!.meta.TransactionResult).toBe('tecUNFUNDED_PAYMENT');
  });

  it('enforces account creation rules', () => {
    const h = new Harness();
    const fresh = Wallet.generate().classicAddress;
    h.expect(genesis, pay(fresh, '999999'), 'tecNO_DST_INSUF_XRP');
    h.expect(genesis, { ...pay(fresh, '5000000'), Flags: 0x00020000 }, 'temBAD_SEND_XRP_PARTIAL');
    h.expect(genesis, pay(GENESIS_ADDRESS), 'temREDUNDANT');
    h.expect(genesis, pay(fresh, '0'), 'temBAD_AMOUNT');
    h.expect(genesis, { ...pay(fresh), SendMax: '100' }, 'temBAD_SEND_XRP_MAX');
    h.expect(genesis, { ...pay(fresh), Flags: 0x1 }, 'temINVALID_FLAG');
    const usd = { currency: 'USD', issuer: GENESIS_ADDRESS, value: '1' };
    h.expect(genesis, { ...pay(fresh), Amount: usd, Flags: 0x00020000 }, 'tecNO_DST');
  });

  it('reports invalid signatures and memos as RPC errors and malformed keys as temBAD_SIGNATURE', () => {
    const h = new Harness();
    const w = h.wallet();
    const blob = h.sign(w, pay(GENESIS_ADDRESS));
    const tx = decode(blob) as Record<string, unknown>;
    const tampered = encode({ ...tx, Amount: '2000000' });
    const r = h.node.submit(tampered);
    expect(r.rpcError).toEqual({
      error: 'invalidTransaction',
      error_exception: 'fails local checks: Invalid signature.',
    });
    const badKey = encode({ ...tx, SigningPubKey: '' });
    expect(h.node.submit(badKey).engine_result).toBe('temBAD_SIGNATURE');
    expect(h.node.submit('ZZ').rpcError?.error).toBe('invalidParams');
    expect(h.node.submit('1200').rpcError?.error).toBe('invalidTransaction');
    const memoBad = h.submit(w, {
      ...pay(GENESIS_ADDRESS),
      Memos: [{ Memo: { MemoType: Buffer.from('bad type').toString('hex') } }],
    });
    expect(memoBad.rpcError?.error_exception).toBe(
      'fails local checks: The MemoType and MemoFormat fields may only contain characters that are allowed in URLs under RFC 3986.',
    );
    const memoBig = h.submit(w, {
      ...pay(GENESIS_ADDRESS),
      Memos: [{ Memo: { MemoData: 'AB'.repeat(1100) } }],
    });
    expect(memoBig.rpcError?.error_exception).toBe(
      'fails local checks: The memo exceeds the maximum allowed size.',
    );
    const ok = h.submit(w, {
      ...pay(GENESIS_ADDRESS),
      Memos: [{ Memo: { MemoType: Buffer.from('text/plain').toString('hex'), MemoData: 'CAFE' } }],
    });
    expect(ok.engine_result).toBe('tesSUCCESS');
    expect(h.node.txByHash(ok.hash)!.tx.Memos).toHaveLength(1);
    // Nothing changed state for the rejected ones: sequence advanced once.
    expect(h.nextSeq(w.classicAddress)).toBe(Number(tx.Sequence) + 1);
  });

  it('uses regular keys, disables the master key and blackholes accounts', () => {
    const h = new Harness();
    const w = h.wallet();
    const regular = Wallet.generate();
    const other = Wallet.generate();
    h.expect(w, { TransactionType: 'SetRegularKey', RegularKey: w.classicAddress }, 'temBAD_REGKEY');
    h.expect(w, { TransactionType: 'AccountSet', SetFlag: 4 }, 'tecNO_ALTERNATIVE_KEY');
    const signedBy = (signer: Wallet, tx: Record<string, unknown>) =>
      h.node.submit(h.sign(signer, { ...tx, Account: w.classicAddress }));
    // fixMasterKeyAsRegularKey: any key that is neither the regular nor the master key is tefBAD_AUTH.
    expect(signedBy(other, pay(GENESIS_ADDRESS)).engine_result).toBe('tefBAD_AUTH');
    // The first key change signed by the master key is free; it is spent even when a fee was paid.
    h.expect(w, { TransactionType: 'SetRegularKey', RegularKey: regular.classicAddress }, 'tesSUCCESS', {
      fee: '0',
    });
    expect(h.account(w.classicAddress)!.Flags).toBe(0x00010000);
    const w2 = h.wallet();
    h.expect(w2, { TransactionType: 'SetRegularKey', RegularKey: regular.classicAddress }, 'tesSUCCESS');
    expect(h.account(w2.classicAddress)!.Flags).toBe(0x00010000);
    h.expect(w2, { TransactionType: 'SetRegularKey' }, 'telINSUF_FEE_P', { fee: '0' });
    expect(signedBy(other, pay(GENESIS_ADDRESS)).engine_result).toBe('tefBAD_AUTH');
    expect(signedBy(regular, pay(GENESIS_ADDRESS)).engine_result).toBe('tesSUCCESS');
    expect(signedBy(regular, { TransactionType: 'AccountSet', SetFlag: 4 }).engine_result).toBe(
      'tecNEED_MASTER_KEY',
    );
    h.expect(w, { TransactionType: 'AccountSet', SetFlag: 4 }, 'tesSUCCESS');
    h.expect(w, pay(GENESIS_ADDRESS), 'tefMASTER_DISABLED');
    expect(signedBy(regular, { TransactionType: 'SetRegularKey' }).engine_result).toBe(
      'tecNO_ALTERNATIVE_KEY',
    );
    const blackhole = 'rrrrrrrrrrrrrrrrrrrrBZbvji';
    expect(signedBy(regular, { TransactionType: 'SetRegularKey', RegularKey: blackhole }).engine_result).toBe(
      'tesSUCCESS',
    );
    expect(h.account(w.classicAddress)!.RegularKey).toBe(blackhole);
    expect(signedBy(regular, pay(GENESIS_ADDRESS)).engine_result).toBe('tefBAD_AUTH');
  });

  it('refuses a removed regular key', () => {
    const h = new Harness();
    const w = h.wallet();
    const regular = Wallet.generate();
    h.expect(w, { TransactionType: 'SetRegularKey', RegularKey: regular.classicAddress }, 'tesSUCCESS');
    h.expect(w, { TransactionType: 'SetRegularKey' }, 'tesSUCCESS');
    expect(h.account(w.classicAddress)!.RegularKey).toBeUndefined();
    expect(
      h.node.submit(h.sign(regular, { ...pay(GENESIS_ADDRESS), Account: w.classicAddress })).engine_result,
    ).toBe('tefBAD_AUTH');
  });

  it('creates and uses tickets', () => {
    const h = new Harness();
    const w = h.wallet();
    const seq = h.nextSeq(w.classicAddress);
    expect(
      h.node.submit(h.signRaw(w, { TransactionType: 'TicketCreate', TicketCount: 0 })).engine_result,
    ).toBe('temINVALID_COUNT');
    h.expect(w, { TransactionType: 'TicketCreate', TicketCount: 2 }, 'tesSUCCESS');
    const acct = h.account(w.classicAddress)!;
    expect(acct.TicketCount).toBe(2);
    expect(acct.OwnerCount).toBe(2);
    expect(acct.Sequence).toBe(seq + 3);
    const useTicket = (t: number, result: string, drops = '1000000') =>
      h.expect(w, { ...pay(GENESIS_ADDRESS, drops), TicketSequence: t, Sequence: 0 }, result, { seq: 0 });
    useTicket(seq + 10, 'terPRE_TICKET');
    useTicket(seq + 2, 'tesSUCCESS');
    useTicket(seq + 2, 'tefALREADY');
    useTicket(seq + 2, 'tefNO_TICKET', '2000000');
    expect(
      h.node.submit(h.signRaw(w, { ...pay(GENESIS_ADDRESS), TicketSequence: seq + 1 })).engine_result,
    ).toBe('temSEQ_AND_TICKET');
    useTicket(seq + 1, 'tesSUCCESS');
    const after = h.account(w.classicAddress)!;
    expect(after.TicketCount).toBeUndefined();
    expect(after.OwnerCount).toBe(0);
    expect(after.Sequence).toBe(seq + 3);
  });

  it('checks AccountTxnID', () => {
    const h = new Harness();
    const w = h.wallet();
    h.expect(w, { TransactionType: 'AccountSet', SetFlag: 5 }, 'tesSUCCESS');
    const r = h.expect(w, pay(GENESIS_ADDRESS), 'tesSUCCESS');
    expect(h.account(w.classicAddress)!.AccountTxnID).toBe(r.hash);
    h.expect(w, { ...pay(GENESIS_ADDRESS), AccountTxnID: '0'.repeat(64) }, 'tefWRONG_PRIOR');
    h.expect(w, { ...pay(GENESIS_ADDRESS), AccountTxnID: r.hash }, 'tesSUCCESS');
  });

  it("applies rippled's AccountDelete age rule and fee exactly (DeleteAccount.cpp)", () => {
    // rippled: calculateBaseFee is one owner reserve (view.fees().increment); preclaim refuses with
    // tecTOO_SOON while `Sequence + 255 > view.seq()`, view.seq() being the ledger it applies in.
    const h = new Harness();
    const w = h.wallet(10_000_000n);
    const del = { TransactionType: 'AccountDelete', Destination: GENESIS_ADDRESS };
    const openSeq = () => Number(h.node.current().header.ledger_index);
    const created = h.nextSeq(w.classicAddress);
    // A new account's sequence is the index of the ledger that created it (DeletableAccounts).
    expect(created).toBe(openSeq());
    h.expect(w, del, 'telINSUF_FEE_P', { fee: '199999' });
    while (openSeq() < created + 254) h.close();
    // created + 255 > created + 254. A tec claims the fee and uses the sequence (now created + 1).
    h.expect(w, del, 'tecTOO_SOON', { fee: '200000' });
    h.close();
    // (created + 1) + 255 > created + 255: still one ledger short. Sequence now created + 2.
    expect(openSeq()).toBe(created + 255);
    h.expect(w, del, 'tecTOO_SOON', { fee: '200000' });
    while (openSeq() < created + 2 + 255) h.close();
    // Sequence + 255 == the ledger: allowed.
    const before = h.balance(w.classicAddress);
    const r = h.expect(w, del, 'tesSUCCESS', { fee: '200000' });
    expect(h.account(w.classicAddress)).toBeUndefined();
    expect(BigInt(h.node.txByHash(r.hash)!.meta.delivered_amount as string)).toBe(before - 200_000n);
  });

  it('deletes accounts only after 256 ledgers and without obligations', () => {
    const h = new Harness();
    const w = h.wallet(10_000_000n);
    const del = { TransactionType: 'AccountDelete', Destination: GENESIS_ADDRESS };
    h.expect(w, del, 'telINSUF_FEE_P');
    h.expect(w, del, 'tecTOO_SOON', { fee: '200000' });
    h.expect(w, { TransactionType: 'TicketCreate', TicketCount: 1 }, 'tesSUCCESS');
    // An open offer is deletable too (it goes with the account).
    h.expect(
      w,
      {
        TransactionType: 'OfferCreate',
        TakerGets: '1000000',
        TakerPays: { currency: 'USD', issuer: GENESIS_ADDRESS, value: '1' },
      },
      'tesSUCCESS',
    );
    expect(h.account(w.classicAddress)!.OwnerCount).toBe(2);
    for (let i = 0; i < 259; i++) h.close();
    const before = h.balance(GENESIS_ADDRESS);
    const r = h.expect(w, del, 'tesSUCCESS', { fee: '200000' });
    expect(h.account(w.classicAddress)).toBeUndefined();
    const leftovers = [...h.node.current().entries()].filter(
      (e) =>
        e.Account === w.classicAddress ||
        e.Owner === w.classicAddress ||
        e.LedgerEntryType === 'Offer' ||
        (e.LedgerEntryType === 'DirectoryNode' && e.TakerPaysCurrency !== undefined),
    );
    expect(leftovers).toEqual([]);
    const delivered = BigInt(h.node.txByHash(r.hash)!.meta.delivered_amount as string);
    expect(delivered).toBe(10_000_000n - 200_000n - 10n - 10n - 200_000n);
    expect(h.balance(GENESIS_ADDRESS)).toBe(before + delivered);
  });
});
