// Trust-line flags seen from each side (auth, freeze, NoRipple, qualities), typed ledger_entry
// selectors for tickets and offers, and account_objects paging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrustSetFlags, type Wallet } from 'xrpl';
import { fund, startHarness, submitAndClose, type Harness } from './helpers';

let h: Harness;
let issuer: Wallet;
let holder: Wallet;

beforeAll(async () => {
  h = await startHarness();
  [issuer, holder] = [await fund(h), await fund(h)];
  // RequireAuth (asfRequireAuth = 2) before any line exists, then the holder's line with a quality and NoRipple.
  await submitAndClose(h, { TransactionType: 'AccountSet', Account: issuer.address, SetFlag: 2 }, issuer);
  const line = await submitAndClose(
    h,
    {
      TransactionType: 'TrustSet',
      Account: holder.address,
      LimitAmount: { currency: 'EUR', issuer: issuer.address, value: '500' },
      QualityIn: 1_010_000_000,
      Flags: TrustSetFlags.tfSetNoRipple,
    },
    holder,
  );
  expect(line.submitted.engine_result).toBe('tesSUCCESS');
  // The issuer authorizes and freezes the holder's line.
  const auth = await submitAndClose(
    h,
    {
      TransactionType: 'TrustSet',
      Account: issuer.address,
      LimitAmount: { currency: 'EUR', issuer: holder.address, value: '0' },
      Flags: TrustSetFlags.tfSetfAuth | TrustSetFlags.tfSetFreeze,
    },
    issuer,
  );
  expect(auth.submitted.engine_result).toBe('tesSUCCESS');
});
afterAll(async () => h.close());

describe('account_lines flags from each side', () => {
  it('shows the holder its own flags and the issuer’s as *_peer', async () => {
    const { result } = await h.client.request({ command: 'account_lines', account: holder.address });
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatchObject({
      account: issuer.address,
      currency: 'EUR',
      limit: '500',
      limit_peer: '0',
      quality_in: 1_010_000_000,
      quality_out: 0,
      no_ripple: true,
      peer_authorized: true,
      freeze_peer: true,
    });
    expect(result.lines[0]).not.toHaveProperty('authorized');
    expect(result.lines[0]).not.toHaveProperty('freeze');
  });

  it('shows the issuer the mirror image', async () => {
    const { result } = await h.client.request({ command: 'account_lines', account: issuer.address });
    expect(result.lines[0]).toMatchObject({
      account: holder.address,
      limit: '0',
      limit_peer: '500',
      quality_in: 0,
      no_ripple_peer: true,
      authorized: true,
      freeze: true,
    });
    expect(result.lines[0]).not.toHaveProperty('peer_authorized');
    expect(result.lines[0]).not.toHaveProperty('freeze_peer');
  });
});

describe('gateway_balances', () => {
  it('lists obligations the gateway froze under frozen_balances', async () => {
    // Unfreeze, issue, freeze again: the balance moves from obligations to frozen_balances.
    const line = { currency: 'EUR', issuer: holder.address, value: '0' };
    await submitAndClose(
      h,
      {
        TransactionType: 'TrustSet',
        Account: issuer.address,
        LimitAmount: line,
        Flags: TrustSetFlags.tfClearFreeze,
      },
      issuer,
    );
    const paid = await submitAndClose(
      h,
      {
        TransactionType: 'Payment',
        Account: issuer.address,
        Destination: holder.address,
        Amount: { currency: 'EUR', issuer: issuer.address, value: '42' },
      },
      issuer,
    );
    expect(paid.submitted.engine_result).toBe('tesSUCCESS');
    const open = await h.client.request({ command: 'gateway_balances', account: issuer.address });
    expect(open.result.obligations).toEqual({ EUR: '42' });
    await submitAndClose(
      h,
      {
        TransactionType: 'TrustSet',
        Account: issuer.address,
        LimitAmount: line,
        Flags: TrustSetFlags.tfSetFreeze,
      },
      issuer,
    );
    const frozen = await h.client.request({ command: 'gateway_balances', account: issuer.address });
    expect(frozen.result.obligations).toBeUndefined();
    expect((frozen.result as { frozen_balances?: unknown }).frozen_balances).toEqual({
      [holder.address]: [{ currency: 'EUR', value: '42' }],
    });
  });
});

describe('typed selectors and paging', () => {
  it('finds tickets by {account, ticket_seq} and pages account_objects', async () => {
    const info = await h.client.request({
      command: 'account_info',
      account: holder.address,
      ledger_index: 'current',
    });
    const firstTicket = info.result.account_data.Sequence + 1;
    const created = await submitAndClose(
      h,
      { TransactionType: 'TicketCreate', Account: holder.address, TicketCount: 12 },
      holder,
    );
    expect(created.submitted.engine_result).toBe('tesSUCCESS');
    // rippled's selector is {account, ticket_seq} (xrpl.js's typing differs), so bypass the typed request.
    const ticket = (await h.client.connection.request({
      command: 'ledger_entry',
      ticket: { account: holder.address, ticket_seq: firstTicket + 3 },
    } as never)) as { result: { index: string; node: Record<string, unknown> } };
    expect(ticket.result.node).toMatchObject({
      LedgerEntryType: 'Ticket',
      Account: holder.address,
      TicketSequence: firstTicket + 3,
    });
    const byIndex = await h.client.request({ command: 'ledger_entry', ticket: ticket.result.index });
    expect(byIndex.result.node).toEqual(ticket.result.node);
    await expect(
      h.client.connection.request({
        command: 'ledger_entry',
        ticket: { account: holder.address, ticket_seq: 1 },
      } as never),
    ).rejects.toMatchObject({
      data: { error: 'entryNotFound' },
    });

    const seen: string[] = [];
    let marker: unknown;
    let pages = 0;
    do {
      const page = await h.client.request({
        command: 'account_objects',
        account: holder.address,
        type: 'ticket',
        limit: 10,
        marker,
      });
      seen.push(...page.result.account_objects.map((o) => o.index));
      marker = page.result.marker;
      pages += 1;
    } while (marker && pages < 10);
    expect(pages).toBe(2);
    expect(new Set(seen).size).toBe(12);
    const all = await h.client.request({ command: 'account_objects', account: holder.address });
    expect(all.result.account_objects).toHaveLength(13);
    // Tickets don't block deletion; the trust line does.
    const blockers = await h.client.request({
      command: 'account_objects',
      account: holder.address,
      deletion_blockers_only: true,
    });
    expect(blockers.result.account_objects.map((o) => o.LedgerEntryType)).toEqual(['RippleState']);
  });

  it('finds offers by {account, seq}', async () => {
    const info = await h.client.request({
      command: 'account_info',
      account: issuer.address,
      ledger_index: 'current',
    });
    const seq = info.result.account_data.Sequence;
    const offer = await submitAndClose(
      h,
      {
        TransactionType: 'OfferCreate',
        Account: issuer.address,
        TakerGets: { currency: 'EUR', issuer: issuer.address, value: '10' },
        TakerPays: '20000000',
      },
      issuer,
    );
    expect(offer.submitted.engine_result).toBe('tesSUCCESS');
    const entry = await h.client.request({
      command: 'ledger_entry',
      offer: { account: issuer.address, seq },
    });
    expect(entry.result.node).toMatchObject({
      LedgerEntryType: 'Offer',
      Account: issuer.address,
      Sequence: seq,
    });
    // A typed selector naming an entry of another type is refused.
    const root = await h.client.request({ command: 'ledger_entry', account_root: issuer.address });
    await expect(
      h.client.request({ command: 'ledger_entry', offer: root.result.index }),
    ).rejects.toMatchObject({
      data: { error: 'unexpectedLedgerType' },
    });
  });
});
