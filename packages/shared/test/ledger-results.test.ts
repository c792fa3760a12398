import { describe, expect, it } from 'vitest';
import { EXPLAINED_LEDGER_RESULTS, ledgerResultMessage } from '../src/index';

// Every ledger result a user can meet reads as a sentence; the code itself stays out of it (the
// server keeps it in the answer's `result` field).

const MUST_EXPLAIN = [
  'tecUNFUNDED_OFFER',
  'tecUNFUNDED_PAYMENT',
  'tecUNFUNDED_AMM',
  'tecPATH_PARTIAL',
  'tecPATH_DRY',
  'tecAMM_FAILED',
  'tecAMM_BALANCE',
  'tecNO_LINE_REDUNDANT',
  'tecNO_DST_INSUF_XRP',
  'tefMASTER_DISABLED',
  'tecNO_PERMISSION',
  'tecKILLED',
  'tecINSUF_RESERVE_LINE',
  'tecINSUF_RESERVE_OFFER',
  'tecNO_AUTH',
  'tecFROZEN',
  'tefPAST_SEQ',
  'terPRE_SEQ',
  'expired',
  'rolled-back',
  'not-applied',
];

describe('ledgerResultMessage', () => {
  it('gives every result users meet a sentence of its own, without the code', () => {
    for (const code of MUST_EXPLAIN) {
      expect(EXPLAINED_LEDGER_RESULTS, code).toContain(code);
      const sentence = ledgerResultMessage(code);
      expect(sentence, code).toMatch(/^[A-Z].+\.$/);
      expect(sentence, code).not.toContain(code);
    }
  });
  it('says what happened to the money', () => {
    expect(ledgerResultMessage('tecPATH_PARTIAL')).toContain('slippage tolerance');
    expect(ledgerResultMessage('tecPATH_DRY')).toContain('Nothing was traded');
    expect(ledgerResultMessage('tecNO_DST_INSUF_XRP')).toContain('base reserve');
    expect(ledgerResultMessage('tefMASTER_DISABLED')).toContain('can no longer sign');
  });
  it('answers unknown codes by their class, naming the code', () => {
    expect(ledgerResultMessage('tecUNFUNDED_SOMETHING')).toBe(ledgerResultMessage('tecUNFUNDED'));
    expect(ledgerResultMessage('tecINSUF_RESERVE_NEW')).toBe(ledgerResultMessage('tecINSUFFICIENT_RESERVE'));
    expect(ledgerResultMessage('tecXYZ')).toBe(
      'The XRP Ledger refused this (tecXYZ); nothing changed except the network fee.',
    );
    expect(ledgerResultMessage('temXYZ')).toContain('nothing was sent');
  });
});
