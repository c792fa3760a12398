import { describe, expect, it } from 'vitest';
import { encode } from 'ripple-binary-codec';
import { Harness } from './helpers';
import { serializeHex } from '../../src/core/serializer';

describe('fast serializer', () => {
  it('matches ripple-binary-codec for every entry and metadata of a busy ledger', () => {
    const h = new Harness();
    const issuer = h.wallet();
    const alice = h.wallet();
    h.expect(
      issuer,
      { TransactionType: 'AccountSet', SetFlag: 8, Domain: 'AABB', TransferRate: 1_002_000_000 },
      'tesSUCCESS',
    );
    h.expect(
      alice,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: issuer.classicAddress, value: '1000' },
      },
      'tesSUCCESS',
    );
    h.expect(
      alice,
      {
        TransactionType: 'TrustSet',
        LimitAmount: {
          currency: '0158415500000000C1F76FF6ECB0BAC600000000',
          issuer: issuer.classicAddress,
          value: '1e-20',
        },
      },
      'tesSUCCESS',
    );
    h.expect(
      issuer,
      {
        TransactionType: 'Payment',
        Destination: alice.classicAddress,
        Amount: { currency: 'USD', issuer: issuer.classicAddress, value: '123.456789' },
      },
      'tesSUCCESS',
    );
    h.expect(alice, { TransactionType: 'TicketCreate', TicketCount: 3 }, 'tesSUCCESS');
    h.close();
    const view = h.node.validated();
    let n = 0;
    for (const e of view.entries()) {
      const { index: _i, ...rest } = e;
      expect(serializeHex(e)).toBe(encode(rest));
      n++;
    }
    expect(n).toBeGreaterThan(8);
    for (const t of view.transactions) {
      const { delivered_amount: _d, ...meta } = t.meta;
      expect(t.metaBlob).toBe(encode(meta));
    }
  });

  it('encodes negative and zero amounts like the codec', () => {
    const base = {
      LedgerEntryType: 'RippleState',
      Flags: 0,
      LowNode: '0',
      HighNode: 'a',
      PreviousTxnID: '0'.repeat(64),
      PreviousTxnLgrSeq: 1,
    };
    for (const value of ['0', '-1.5', '9999999999999999e80', '1e-81', '-0.000001']) {
      const entry = {
        ...base,
        Balance: { currency: 'USD', issuer: 'rrrrrrrrrrrrrrrrrrrrBZbvji', value },
        LowLimit: { currency: 'USD', issuer: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', value: '0' },
        HighLimit: { currency: 'USD', issuer: 'rrrrrrrrrrrrrrrrrrrrBZbvji', value: '100' },
      };
      expect(serializeHex(entry)).toBe(encode(entry));
    }
  });
});
