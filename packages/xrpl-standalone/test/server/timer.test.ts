// The close timer: ledgers close on their own, streams follow, and xrpl.js's faucet funding and
// submitAndWait complete without anyone calling ledger_accept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type LedgerStream } from 'xrpl';
import { startHarness, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ closeIntervalMs: 150 });
});
afterAll(async () => h.close());

describe('closeIntervalMs', () => {
  it('closes ledgers on its own and streams each one', async () => {
    await h.client.request({ command: 'subscribe', streams: ['ledger'] });
    const seen: number[] = [];
    await new Promise<void>((resolve) => {
      const listener = (ledger: LedgerStream) => {
        seen.push(ledger.ledger_index);
        if (seen.length === 3) {
          h.client.off('ledgerClosed', listener);
          resolve();
        }
      };
      h.client.on('ledgerClosed', listener);
    });
    expect(seen[1]).toBe((seen[0] as number) + 1);
    expect(seen[2]).toBe((seen[0] as number) + 2);
    await h.client.request({ command: 'unsubscribe', streams: ['ledger'] });
  });

  it('funds through the faucet and validates with submitAndWait', async () => {
    const { wallet, balance } = await h.client.fundWallet(Wallet.generate(), {
      faucetHost: h.ledger.faucetHost,
      faucetProtocol: 'http',
    });
    expect(balance).toBe(1000);
    const other = Wallet.generate();
    const result = await h.client.submitAndWait(
      { TransactionType: 'Payment', Account: wallet.address, Destination: other.address, Amount: '20000000' },
      { wallet },
    );
    expect(result.result.validated).toBe(true);
    expect((result.result.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
    expect(await h.client.getXrpBalance(other.address)).toBe(20);
  });
});

describe('setCloseInterval', () => {
  const index = async () =>
    (await h.client.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger_index;

  it('changes the cadence from the call on: a long interval holds the next close, a short one resumes', async () => {
    h.ledger.setCloseInterval(60_000);
    const held = await index();
    // Six of the old 150 ms intervals pass without a close.
    await new Promise((r) => setTimeout(r, 900));
    expect(await index()).toBe(held);
    h.ledger.setCloseInterval(50);
    await new Promise((r) => setTimeout(r, 600));
    expect(await index()).toBeGreaterThan(held + 1);
    h.ledger.setCloseInterval(150);
  });

  it('refuses an interval below 1 ms', () => {
    expect(() => h.ledger.setCloseInterval(0)).toThrow(RangeError);
  });
});
