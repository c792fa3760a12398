// The allocation-free paths of the close (scratch-buffer serializer and hashing, key-order tries)
// against straightforward references: the codec, createHash, and sorting by field ordinal.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { Wallet, hashes } from 'xrpl';
import { decode, encode } from 'ripple-binary-codec';
import definitions from 'ripple-binary-codec/dist/enums/definitions.json';
import { Harness } from './helpers';
import { serialize, serializeHex, serializeTransient } from '../../src/core/serializer';
import {
  HASH_PREFIX,
  sha512Half,
  sha512HalfHex,
  sha512HalfHexOfBytes,
  sha512HalfHexOfHex,
  u32,
} from '../../src/core/hash';
import { transactionTreeHashOfLeaves, txLeafHashOf, vlPrefix } from '../../src/core/ledger-hash';
import {
  canonicalOrder,
  keyPlan,
  metaChangeNew,
  metaChangeOrig,
  metaDeleteFinal,
} from '../../src/core/state/fields';
import { decodeTransaction } from '../../src/core/tx-decoder';

function referenceHalf(...parts: Uint8Array[]): Buffer {
  const h = createHash('sha512');
  for (const p of parts) h.update(p);
  return h.digest().subarray(0, 32);
}

/** The codec's answer for an object: its encoding, or that it throws. */
function codec(obj: Record<string, unknown>): string | 'throws' {
  const { index: _i, ...rest } = obj;
  try {
    return encode(rest);
  } catch {
    return 'throws';
  }
}

function serializerAgrees(obj: Record<string, unknown>): void {
  const expected = codec(obj);
  if (expected === 'throws') {
    expect(() => serializeHex(obj)).toThrow();
    return;
  }
  expect(serializeHex(obj)).toBe(expected);
  expect(serialize(obj).toString('hex').toUpperCase()).toBe(expected);
  expect(serializeTransient(obj).toString('hex').toUpperCase()).toBe(expected);
}

const ALICE = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';

describe('scratch-buffer serializer', () => {
  it('matches the codec whatever the key order, and for entries larger than its buffer', () => {
    const entry = {
      LedgerEntryType: 'AccountRoot',
      Account: ALICE,
      Balance: '99999999999999990',
      Flags: 0,
      OwnerCount: 2,
      PreviousTxnID: 'ab'.repeat(32),
      PreviousTxnLgrSeq: 7,
      Sequence: 12,
      Domain: 'aabbcc',
      index: 'CD'.repeat(32),
    };
    serializerAgrees(entry);
    const keys = Object.keys(entry);
    for (let shift = 1; shift < keys.length; shift++) {
      const rotated: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const k = keys[(i + shift) % keys.length] as string;
        rotated[k] = entry[k as keyof typeof entry];
      }
      serializerAgrees(rotated);
    }
    serializerAgrees({ ...entry, Domain: 'AB'.repeat(40_000) });
    serializerAgrees({
      LedgerEntryType: 'DirectoryNode',
      Flags: 0,
      Owner: ALICE,
      RootIndex: '11'.repeat(32),
      Indexes: Array.from({ length: 300 }, (_, i) => i.toString(16).padStart(64, '0')),
    });
  });

  it('hands what it cannot write to the codec, also for key sequences it has seen before', () => {
    const base = { LedgerEntryType: 'AccountRoot', Account: ALICE, Balance: '1', Flags: 0, Sequence: 1 };
    // Undefined values are skipped (the codec would reject the unknown name); a defined one is not.
    expect(serializeHex({ ...base, Unknown: undefined })).toBe(encode(base));
    serializerAgrees({ ...base, Unknown: 'x' });
    expect(serializeHex({ ...base, Unknown: undefined })).toBe(encode(base));
    serializerAgrees({ ...base, PreviousTxnID: 'zz'.repeat(32) });
    serializerAgrees({ ...base, PreviousTxnID: 'AB'.repeat(31) });
    serializerAgrees({ ...base, Domain: 'ABC' });
    serializerAgrees({ ...base, Domain: 'GG' });
    serializerAgrees({ ...base, Balance: '1.5' });
    serializerAgrees({ ...base, Sequence: 1.5 });
    serializerAgrees({ ...base, Flags: -1 });
    serializerAgrees({ ...base, Memos: [{ Memo: { MemoData: 'AB' } }, { Memo: { MemoType: '0102' } }] });
    serializerAgrees({ ...base, Memos: [{ Memo: { MemoData: 'AB' }, Extra: {} }] });
    serializerAgrees({ ...base, Memos: [{}] });
  });
});

describe('one-shot hashing', () => {
  it('sha512Half of any number of parts is SHA-512 over their concatenation, halved', () => {
    const big = Buffer.alloc(20_000, 7);
    const cases: Uint8Array[][] = [[], [Buffer.from('ab')], [u32(1), Buffer.alloc(33, 1), big], [big, big]];
    for (const parts of cases) expect(sha512Half(...parts)).toEqual(referenceHalf(...parts));
    // The hex forms (digest asked for as hex) are the same digest in upper case.
    for (const parts of cases) {
      expect(sha512HalfHex(...parts)).toBe(
        referenceHalf(...parts)
          .toString('hex')
          .toUpperCase(),
      );
    }
    for (const data of [Buffer.alloc(0), Buffer.from('ab'), big]) {
      expect(sha512HalfHexOfBytes(HASH_PREFIX.transactionId, data)).toBe(
        referenceHalf(u32(HASH_PREFIX.transactionId), data).toString('hex').toUpperCase(),
      );
    }
  });

  it('sha512HalfHexOfHex hashes the prefix and what Buffer.from(hex) decodes', () => {
    for (const data of ['', 'ab', 'ABCDEF01', 'abc', 'AB0G12', 'FF'.repeat(10_000)]) {
      const expected = referenceHalf(u32(HASH_PREFIX.transactionId), Buffer.from(data, 'hex'))
        .toString('hex')
        .toUpperCase();
      expect(sha512HalfHexOfHex(HASH_PREFIX.transactionId, data)).toBe(expected);
    }
  });

  it('tx-tree leaves and the tree hash agree across hex, bytes and metadata JSON', () => {
    const h = new Harness();
    const alice = h.wallet();
    const bob = h.wallet();
    h.expect(
      alice,
      { TransactionType: 'Payment', Destination: bob.classicAddress, Amount: '1000000' },
      'tesSUCCESS',
    );
    h.expect(alice, { TransactionType: 'TicketCreate', TicketCount: 2 }, 'tesSUCCESS');
    const record = h.node.closeLedger();
    const txs = record.transactions;
    expect(txs.length).toBeGreaterThan(2);
    const binaryMeta = (t: (typeof txs)[number]): Record<string, unknown> => {
      const { delivered_amount: _d, ...meta } = t.meta;
      return meta;
    };
    for (const t of txs) {
      const blob = Buffer.from(t.blob, 'hex');
      const meta = Buffer.from(t.metaBlob, 'hex');
      const expected = referenceHalf(
        u32(HASH_PREFIX.txNode),
        vlPrefix(blob.length),
        blob,
        vlPrefix(meta.length),
        meta,
        Buffer.from(t.hash, 'hex'),
      );
      expect(txLeafHashOf(t.hash, t.blob, t.metaBlob)).toEqual(expected);
      expect(txLeafHashOf(t.hash, t.blob.toLowerCase(), meta)).toEqual(expected);
      expect(txLeafHashOf(t.hash, t.blob, serializeTransient(binaryMeta(t)))).toEqual(expected);
      // The submit path hands over the blob's bytes it decoded instead of the hex.
      expect(txLeafHashOf(t.hash, blob, serializeTransient(binaryMeta(t)))).toEqual(expected);
      expect(txLeafHashOf(t.hash, blob, t.metaBlob)).toEqual(expected);
    }
    // The close's tree hash (from leaves hashed at apply time) is xrpl.js's, and the same again from hex leaves.
    const reference = hashes.hashTxTree(
      txs.map((t) => ({ ...t.tx, hash: t.hash, metaData: t.meta })) as never,
    );
    expect(record.header.transaction_hash).toBe(reference);
    const fromHex = txs.map((t) => ({ hash: t.hash, leafHash: txLeafHashOf(t.hash, t.blob, t.metaBlob) }));
    expect(transactionTreeHashOfLeaves(fromHex)).toBe(reference);
    // Long metadata (a 2-byte VL length) and a blob with a non-hex pair (hashed as Buffer.from decodes it).
    const longMeta = Buffer.alloc(5000, 3);
    const key = 'EF'.repeat(32);
    expect(txLeafHashOf(key, 'ABCD', longMeta)).toEqual(
      referenceHalf(
        u32(HASH_PREFIX.txNode),
        vlPrefix(2),
        Buffer.from('ABCD', 'hex'),
        vlPrefix(5000),
        longMeta,
        Buffer.from(key, 'hex'),
      ),
    );
    expect(txLeafHashOf(key, 'ABZZCD', longMeta)).toEqual(
      referenceHalf(
        u32(HASH_PREFIX.txNode),
        vlPrefix(1),
        Buffer.from('AB', 'hex'),
        vlPrefix(5000),
        longMeta,
        Buffer.from(key, 'hex'),
      ),
    );
  });
});

describe('canonical key order', () => {
  const ordinals = new Map<string, number>();
  const types = definitions.TYPES as Record<string, number>;
  for (const [name, info] of definitions.FIELDS as Array<[string, { nth: number; type: string }]>)
    ordinals.set(name, (types[info.type] ?? 0) * 65536 + info.nth);
  const reference = (keys: string[]): string[] =>
    keys
      .map((k, i) => ({ k, i, o: ordinals.get(k) ?? Number.MAX_SAFE_INTEGER }))
      .sort((a, b) => a.o - b.o || a.i - b.i)
      .map((x) => x.k);

  it('sorts by field ordinal, unknown keys last in their own order, for every seen and unseen sequence', () => {
    const pool = [
      'Balance',
      'index',
      'Flags',
      'zeta',
      'Account',
      'PreviousTxnID',
      'LedgerEntryType',
      'alpha',
    ];
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let round = 0; round < 300; round++) {
      const keys = pool.filter(() => next() % 3 !== 0);
      for (let i = keys.length - 1; i > 0; i--) {
        const j = next() % (i + 1);
        [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
      }
      const obj = Object.fromEntries(keys.map((k) => [k, k]));
      const sorted = reference(keys);
      expect(Object.keys(canonicalOrder(obj))).toEqual(sorted);
      const plan = keyPlan(obj);
      expect(plan.all).toEqual(sorted);
      expect(plan.changeOrig).toEqual(sorted.filter(metaChangeOrig));
      expect(plan.changeNew).toEqual(sorted.filter(metaChangeNew));
      expect(plan.deleteFinal).toEqual(sorted.filter(metaDeleteFinal));
    }
  });
});

describe('XRP amounts without BigInt below 10^15 / 2^53 drops', () => {
  it('encodes and decodes like the codec on both sides of the limits', () => {
    const w = Wallet.generate();
    for (const drops of [
      '0',
      '1',
      '10',
      '4294967295',
      '4294967296',
      '999999999999999',
      '1000000000000000',
      '9007199254740991',
      '9007199254740992',
      '9007199254740993',
      '100000000000000000',
    ]) {
      const tx = {
        TransactionType: 'Payment',
        Account: w.classicAddress,
        Destination: ALICE,
        Amount: drops,
        Fee: drops,
        Flags: 0,
        Sequence: 1,
        SigningPubKey: '',
      };
      const blob = encode(tx);
      expect(serializeHex(tx)).toBe(blob);
      expect(decodeTransaction(blob)).toEqual(decode(blob));
    }
  });

  it('writes negative and leading-zero drops as the BigInt path did', () => {
    // Balance is field 2 of type 6 (Amount): header byte 0x62, then the 8 bytes.
    expect(serializeHex({ Balance: '-12345' })).toBe('620000000000003039');
    expect(serializeHex({ Balance: '-0' })).toBe('624000000000000000');
    expect(serializeHex({ Balance: '00042' })).toBe('62400000000000002A');
    expect(serializeHex({ Balance: '-1000000000000000' })).toBe('6200038D7EA4C68000');
  });
});

describe('transaction decoder on lowercase blobs', () => {
  it('prints hex fields in uppercase like the codec', () => {
    const w = Wallet.generate();
    const blob = w.sign({
      TransactionType: 'Payment',
      Account: w.classicAddress,
      Destination: ALICE,
      Amount: '1000',
      Fee: '12',
      Sequence: 3,
      InvoiceID: 'ab'.repeat(32),
      Memos: [{ Memo: { MemoData: 'abcdef' } }],
    }).tx_blob;
    const lower = blob.toLowerCase();
    expect(decodeTransaction(lower)).toEqual(decode(lower));
    expect(decodeTransaction(lower)).toEqual(decode(blob));
  });
});
