import { describe, expect, it } from 'vitest';
import type { Wallet } from 'xrpl';
import { Harness } from './helpers';
import { dirEntries } from '../../src/core/state/directory';
import { ownerDirKey } from '../../src/core/keylets';
import type { LedgerEntry, LedgerView } from '../../src/core/contract';
import { INITIAL_DROPS } from '../../src/core/ledger-node';

/** A tiny deterministic PRNG so failures reproduce. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function checkInvariants(view: LedgerView): void {
  const all = [...view.entries()];
  let xrp = 0n;
  const owned = new Map<string, number>();
  const bump = (a: string) => owned.set(a, (owned.get(a) ?? 0) + 1);
  for (const e of all) {
    if (e.LedgerEntryType === 'AccountRoot') xrp += BigInt(e.Balance as string);
    if (e.LedgerEntryType === 'Ticket' || e.LedgerEntryType === 'Offer') bump(e.Account as string);
    if (e.LedgerEntryType === 'RippleState') {
      const flags = Number(e.Flags);
      if (flags & 0x00010000) bump((e.LowLimit as { issuer: string }).issuer);
      if (flags & 0x00020000) bump((e.HighLimit as { issuer: string }).issuer);
    }
  }
  expect(xrp).toBe(BigInt(view.header.total_coins));
  expect(BigInt(view.header.total_coins) <= INITIAL_DROPS).toBe(true);
  for (const e of all) {
    if (e.LedgerEntryType !== 'AccountRoot') continue;
    const account = e.Account as string;
    expect(Number(e.OwnerCount), `OwnerCount of ${account}`).toBe(owned.get(account) ?? 0);
    for (const key of dirEntries(view, ownerDirKey(account))) {
      const obj = view.read(key) as LedgerEntry | undefined;
      expect(obj, `dangling directory entry ${key}`).toBeDefined();
    }
  }
}

describe('ledger invariants under random traffic', () => {
  it('keeps XRP conserved, owner counts and owner directories consistent', () => {
    const h = new Harness();
    const r = rng(7);
    const issuers = [h.wallet(), h.wallet()];
    const users = [h.wallet(50_000_000n), h.wallet(50_000_000n), h.wallet(3_000_000n)];
    h.expect(issuers[0] as Wallet, { TransactionType: 'AccountSet', SetFlag: 8 }, 'tesSUCCESS');
    h.expect(
      issuers[1] as Wallet,
      { TransactionType: 'AccountSet', TransferRate: 1_010_000_000, SetFlag: 8 },
      'tesSUCCESS',
    );
    const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)] as T;
    const currencies = ['USD', 'EUR'];
    const counts = new Map<string, number>();
    for (let step = 0; step < 250; step++) {
      const who = pick(users);
      const issuer = pick(issuers);
      const currency = pick(currencies);
      const roll = r();
      let tx: Record<string, unknown>;
      if (roll < 0.3) {
        const flags = r() < 0.5 ? 0x00020000 : 0;
        tx = {
          TransactionType: 'TrustSet',
          LimitAmount: { currency, issuer: issuer.classicAddress, value: String(Math.floor(r() * 3) * 50) },
          Flags: flags,
        };
      } else if (roll < 0.5) {
        const to = pick(users);
        tx = {
          TransactionType: 'Payment',
          Destination: to.classicAddress,
          Amount: { currency, issuer: issuer.classicAddress, value: String(1 + Math.floor(r() * 40)) },
          ...(r() < 0.5 ? { SendMax: { currency, issuer: issuer.classicAddress, value: '45' } } : {}),
        };
        if (to === who) continue;
      } else if (roll < 0.7) {
        h.submit(issuer, {
          TransactionType: 'Payment',
          Destination: who.classicAddress,
          Amount: { currency, issuer: issuer.classicAddress, value: String(1 + Math.floor(r() * 30)) },
        });
        continue;
      } else if (roll < 0.8) {
        tx = {
          TransactionType: 'Payment',
          Destination: issuer.classicAddress,
          Amount: { currency, issuer: issuer.classicAddress, value: String(1 + Math.floor(r() * 30)) },
          Flags: 0x00020000,
        };
      } else if (roll < 0.9) {
        tx = { TransactionType: 'TicketCreate', TicketCount: 1 + Math.floor(r() * 3) };
      } else {
        tx = {
          TransactionType: 'Payment',
          Destination: pick(issuers).classicAddress,
          Amount: String(1_000_000 + Math.floor(r() * 5_000_000)),
        };
      }
      const res = h.submit(who, tx);
      counts.set(res.engine_result, (counts.get(res.engine_result) ?? 0) + 1);
      expect(res.rpcError).toBeUndefined();
      expect(
        res.engine_result.startsWith('tes') || res.engine_result.startsWith('tec'),
        `${res.engine_result} for ${JSON.stringify(tx)}`,
      ).toBe(true);
      if (step % 25 === 24) {
        h.close();
        checkInvariants(h.node.validated());
      }
    }
    h.close();
    checkInvariants(h.node.validated());
    // The traffic must really exercise successful rippling, not just failures.
    expect(counts.get('tesSUCCESS') ?? 0).toBeGreaterThan(60);
    expect(counts.get('tecPATH_DRY') ?? 0).toBeGreaterThan(0);
  });
});
