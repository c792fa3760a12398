// Every read method through xrpl.js, checked against the shapes xrpl.js types and rippled returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, convertStringToHex, hashes, type Payment, type TrustSet } from 'xrpl';
import { fund, genesis, startHarness, submitAndClose, type Harness } from './helpers';

let h: Harness;
let alice: Wallet;
let bob: Wallet;
let issuer: Wallet;
let paymentHash: string;

beforeAll(async () => {
  h = await startHarness();
  [alice, bob, issuer] = [await fund(h), await fund(h), await fund(h)];
  const payment: Payment = {
    TransactionType: 'Payment',
    Account: alice.address,
    Destination: bob.address,
    Amount: '1234567',
  };
  paymentHash = (await submitAndClose(h, payment, alice)).hash;
  await submitAndClose(h, { TransactionType: 'AccountSet', Account: issuer.address, SetFlag: 8 }, issuer);
  for (const holder of [alice, bob]) {
    const trust: TrustSet = {
      TransactionType: 'TrustSet',
      Account: holder.address,
      LimitAmount: { currency: 'USD', issuer: issuer.address, value: '1000' },
    };
    await submitAndClose(h, trust, holder);
  }
  const issue: Payment = {
    TransactionType: 'Payment',
    Account: issuer.address,
    Destination: alice.address,
    Amount: { currency: 'USD', issuer: issuer.address, value: '250.5' },
  };
  await submitAndClose(h, issue, issuer);
});
afterAll(async () => h.close());

describe('server methods', () => {
  it('server_info reports a full, validated stand-alone node', async () => {
    const { result } = await h.client.request({ command: 'server_info' });
    expect(result.info.server_state).toBe('full');
    expect(result.info.validated_ledger).toMatchObject({
      base_fee_xrp: 0.00001,
      reserve_base_xrp: 1,
      reserve_inc_xrp: 0.2,
    });
    expect(result.info.complete_ledgers).toMatch(/^\d+(-\d+)?$/);
    const state = await h.client.request({ command: 'server_state' });
    expect(state.result.state.validated_ledger).toMatchObject({
      base_fee: 10,
      reserve_base: 1_000_000,
      reserve_inc: 200_000,
    });
  });

  it('fee, ping, random, ledger_current, ledger_closed', async () => {
    const fee = await h.client.request({ command: 'fee' });
    expect(fee.result.drops).toMatchObject({ base_fee: '10', minimum_fee: '10', open_ledger_fee: '10' });
    // xrpl.js autofills base_fee_xrp × load_factor × its 1.2 cushion from server_info.
    const filled = await h.client.autofill({ TransactionType: 'AccountSet', Account: alice.address });
    expect((filled as { Fee?: string }).Fee).toBe('12');
    expect((await h.client.request({ command: 'ping' })).result).toEqual({ role: 'admin', unlimited: true });
    expect((await h.client.request({ command: 'random' })).result.random).toMatch(/^[0-9A-F]{64}$/);
    const current = await h.client.request({ command: 'ledger_current' });
    const closed = await h.client.request({ command: 'ledger_closed' });
    expect(current.result.ledger_current_index).toBe(closed.result.ledger_index + 1);
    expect(closed.result.ledger_hash).toMatch(/^[0-9A-F]{64}$/);
  });

  it('ledger_accept closes the open ledger', async () => {
    const before = await h.client.getLedgerIndex();
    const reply = await h.client.connection.request({ command: 'ledger_accept' });
    expect((reply as { result: { ledger_current_index: number } }).result.ledger_current_index).toBe(
      before + 2,
    );
    expect(await h.client.getLedgerIndex()).toBe(before + 1);
  });

  it('feature lists the amendments in the ledger, by ID and by name', async () => {
    const all = (await h.client.connection.request({ command: 'feature' })) as {
      result: { features: Record<string, { enabled: boolean; name: string; supported: boolean }> };
    };
    const amm = Object.entries(all.result.features).find(([, f]) => f.name === 'AMM');
    expect(amm?.[1]).toEqual({ enabled: true, name: 'AMM', supported: true });
    const one = (await h.client.connection.request({ command: 'feature', feature: 'Clawback' })) as {
      result: Record<string, unknown>;
    };
    expect(Object.values(one.result)).toEqual([{ enabled: true, name: 'Clawback', supported: true }]);
    await expect(
      h.client.connection.request({ command: 'feature', feature: 'NoSuchAmendment' }),
    ).rejects.toMatchObject({
      data: { error: 'badFeature' },
    });
  });

  it('server_definitions returns the binary-codec definitions', async () => {
    const reply = (await h.client.connection.request({ command: 'server_definitions' })) as {
      result: Record<string, unknown>;
    };
    expect(reply.result).toHaveProperty('TRANSACTION_TYPES');
    expect(reply.result).toHaveProperty('FIELDS');
  });
});

describe('ledger', () => {
  it('returns the header in v2 and v1 shapes', async () => {
    const v2 = await h.client.request({ command: 'ledger', ledger_index: 'validated' });
    expect(v2.result.validated).toBe(true);
    expect(v2.result.ledger).toMatchObject({
      closed: true,
      ledger_index: v2.result.ledger_index,
      ledger_hash: v2.result.ledger_hash,
    });
    expect(typeof v2.result.ledger.close_time_human).toBe('string');
    const v1 = await h.client.request({ command: 'ledger', ledger_index: 'validated', api_version: 1 });
    expect(v1.result.ledger.ledger_index).toBe(String(v2.result.ledger_index));
    const current = await h.client.request({ command: 'ledger', ledger_index: 'current' });
    expect(current.result.ledger.closed).toBe(false);
    expect(current.result.validated).toBe(false);
  });

  it('lists, expands and binary-encodes transactions', async () => {
    const tx = await h.client.request({ command: 'tx', transaction: paymentHash });
    const index = tx.result.ledger_index as number;
    const hashesOnly = await h.client.request({ command: 'ledger', ledger_index: index, transactions: true });
    expect(hashesOnly.result.ledger.transactions).toContain(paymentHash);
    const expanded = await h.client.request({
      command: 'ledger',
      ledger_index: index,
      transactions: true,
      expand: true,
    });
    const entry = (
      expanded.result.ledger.transactions as unknown as Array<{
        hash?: string;
        tx_json?: Record<string, unknown>;
        meta: { TransactionResult: string };
      }>
    ).find((t) => t.hash === paymentHash);
    expect(entry?.tx_json).toMatchObject({ TransactionType: 'Payment', DeliverMax: '1234567' });
    expect(entry?.tx_json).not.toHaveProperty('Amount');
    expect(entry?.meta.TransactionResult).toBe('tesSUCCESS');
    const binary = await h.client.request({
      command: 'ledger',
      ledger_index: index,
      transactions: true,
      expand: true,
      binary: true,
    });
    const blobs = binary.result.ledger.transactions as unknown as Array<Record<string, string>>;
    expect(blobs.some((b) => hashes.hashSignedTx(b.tx_blob as string) === paymentHash)).toBe(true);
  });
});

describe('ledger_entry and ledger_data', () => {
  it('finds entries by index and typed selectors', async () => {
    const byAccount = await h.client.request({
      command: 'ledger_entry',
      account_root: alice.address,
      ledger_index: 'validated',
    });
    expect(byAccount.result.node).toMatchObject({ LedgerEntryType: 'AccountRoot', Account: alice.address });
    expect(byAccount.result.index).toBe(hashes.hashAccountRoot(alice.address));
    const byIndex = await h.client.request({ command: 'ledger_entry', index: byAccount.result.index });
    expect(byIndex.result.node).toEqual(byAccount.result.node);
    const line = await h.client.request({
      command: 'ledger_entry',
      ripple_state: { accounts: [alice.address, issuer.address], currency: 'USD' },
    });
    expect(line.result.index).toBe(hashes.hashTrustline(alice.address, issuer.address, 'USD'));
    expect(line.result.node?.LedgerEntryType).toBe('RippleState');
    const dir = await h.client.request({ command: 'ledger_entry', directory: { owner: alice.address } });
    expect(dir.result.node?.LedgerEntryType).toBe('DirectoryNode');
    const binary = await h.client.request({
      command: 'ledger_entry',
      account_root: alice.address,
      binary: true,
    });
    expect(binary.result.node_binary).toMatch(/^[0-9A-F]+$/);
  });

  it('answers entryNotFound and malformed selectors', async () => {
    await expect(
      h.client.request({ command: 'ledger_entry', account_root: Wallet.generate().address }),
    ).rejects.toMatchObject({
      data: { error: 'entryNotFound' },
    });
    await expect(
      h.client.request({
        command: 'ledger_entry',
        ripple_state: { accounts: [alice.address], currency: 'USD' },
      }),
    ).rejects.toMatchObject({ data: { error: 'invalidParams' } });
  });

  it('pages ledger_data with markers and filters by type', async () => {
    const seen = new Set<string>();
    let marker: unknown;
    let pages = 0;
    do {
      const page = await h.client.request({
        command: 'ledger_data',
        ledger_index: 'validated',
        limit: 3,
        marker,
      });
      for (const e of page.result.state) seen.add(e.index);
      expect(page.result.state.length).toBeLessThanOrEqual(3);
      marker = page.result.marker;
      pages += 1;
    } while (marker && pages < 100);
    const all = await h.client.request({ command: 'ledger_data', ledger_index: 'validated' });
    expect(seen.size).toBe(all.result.state.length);
    expect(pages).toBeGreaterThan(1);
    const accounts = await h.client.request({ command: 'ledger_data', type: 'account' });
    expect(
      accounts.result.state.every(
        (e) => (e as { LedgerEntryType?: string }).LedgerEntryType === 'AccountRoot',
      ),
    ).toBe(true);
    const binary = await h.client.request({ command: 'ledger_data', binary: true, limit: 2 });
    expect(binary.result.state[0]).toHaveProperty('data');
  });
});

describe('account methods', () => {
  it('account_info with flags and signer lists', async () => {
    const info = await h.client.request({
      command: 'account_info',
      account: issuer.address,
      signer_lists: true,
      ledger_index: 'validated',
    });
    expect(info.result.account_data.Account).toBe(issuer.address);
    expect(info.result.account_flags?.defaultRipple).toBe(true);
    expect(info.result.account_flags?.requireAuthorization).toBe(false);
    expect(info.result.signer_lists).toEqual([]);
    expect(info.result.validated).toBe(true);
    const v1 = await h.client.request({
      command: 'account_info',
      account: issuer.address,
      signer_lists: true,
      api_version: 1,
    });
    expect((v1.result.account_data as unknown as { signer_lists: unknown[] }).signer_lists).toEqual([]);
  });

  it('account_lines from each side, with peer filter and markers', async () => {
    const holder = await h.client.request({ command: 'account_lines', account: alice.address });
    expect(holder.result.lines).toEqual([
      expect.objectContaining({
        account: issuer.address,
        balance: '250.5',
        currency: 'USD',
        limit: '1000',
        limit_peer: '0',
        quality_in: 0,
        quality_out: 0,
      }),
    ]);
    const gateway = await h.client.request({ command: 'account_lines', account: issuer.address });
    const toAlice = gateway.result.lines.find((l) => l.account === alice.address);
    expect(toAlice).toMatchObject({ balance: '-250.5', limit: '0', limit_peer: '1000' });
    // The holder's default-ripple line: no NoRipple on either side, so neither key is printed.
    expect(holder.result.lines[0]).not.toHaveProperty('no_ripple');
    expect(toAlice).not.toHaveProperty('no_ripple_peer');
    const filtered = await h.client.request({
      command: 'account_lines',
      account: issuer.address,
      peer: bob.address,
    });
    expect(filtered.result.lines.map((l) => l.account)).toEqual([bob.address]);
    // More lines than one page: rippled's minimum limit is 10, so add lines to page through.
    const extra = [];
    for (let i = 0; i < 11; i += 1) extra.push(await fund(h));
    for (const w of extra) {
      await submitAndClose(
        h,
        {
          TransactionType: 'TrustSet',
          Account: w.address,
          LimitAmount: { currency: 'USD', issuer: issuer.address, value: '5' },
        },
        w,
      );
    }
    const first = await h.client.request({ command: 'account_lines', account: issuer.address, limit: 10 });
    expect(first.result.lines).toHaveLength(10);
    expect(first.result.marker).toBeDefined();
    const second = await h.client.request({
      command: 'account_lines',
      account: issuer.address,
      limit: 10,
      marker: first.result.marker,
    });
    expect(second.result.lines).toHaveLength(3);
    expect(second.result.marker).toBeUndefined();
    const peers = new Set([...first.result.lines, ...second.result.lines].map((l) => l.account));
    expect(peers.size).toBe(13);
  });

  it('account_objects with type filter and deletion blockers', async () => {
    const all = await h.client.request({ command: 'account_objects', account: alice.address });
    expect(all.result.account_objects.map((o) => o.LedgerEntryType)).toEqual(['RippleState']);
    const states = await h.client.request({
      command: 'account_objects',
      account: alice.address,
      type: 'state',
    });
    expect(states.result.account_objects).toHaveLength(1);
    const tickets = await h.client.request({
      command: 'account_objects',
      account: alice.address,
      type: 'ticket',
    });
    expect(tickets.result.account_objects).toHaveLength(0);
    const blockers = await h.client.request({
      command: 'account_objects',
      account: alice.address,
      deletion_blockers_only: true,
    });
    expect(blockers.result.account_objects).toHaveLength(1);
    await expect(
      h.client.request({ command: 'account_objects', account: Wallet.generate().address }),
    ).rejects.toMatchObject({
      data: { error: 'actNotFound' },
    });
  });

  it('deposit_authorized follows DepositAuth', async () => {
    const open = await h.client.request({
      command: 'deposit_authorized',
      source_account: alice.address,
      destination_account: bob.address,
    });
    expect(open.result).toMatchObject({
      deposit_authorized: true,
      source_account: alice.address,
      destination_account: bob.address,
    });
    // asfDepositAuth = 9 on a fresh account: only preauthorized senders (or itself) may pay it.
    const guarded = await fund(h);
    await submitAndClose(h, { TransactionType: 'AccountSet', Account: guarded.address, SetFlag: 9 }, guarded);
    const closed = await h.client.request({
      command: 'deposit_authorized',
      source_account: alice.address,
      destination_account: guarded.address,
    });
    expect(closed.result.deposit_authorized).toBe(false);
    const self = await h.client.request({
      command: 'deposit_authorized',
      source_account: guarded.address,
      destination_account: guarded.address,
    });
    expect(self.result.deposit_authorized).toBe(true);
    await expect(
      h.client.request({
        command: 'deposit_authorized',
        source_account: alice.address,
        destination_account: Wallet.generate().address,
      }),
    ).rejects.toMatchObject({ data: { error: 'dstActNotFound' } });
  });

  it('account_currencies', async () => {
    const holder = await h.client.request({ command: 'account_currencies', account: alice.address });
    expect(holder.result).toMatchObject({ receive_currencies: ['USD'], send_currencies: ['USD'] });
    const fresh = await h.client.request({ command: 'account_currencies', account: bob.address });
    expect(fresh.result).toMatchObject({ receive_currencies: ['USD'], send_currencies: [] });
  });

  it('gateway_balances with hot wallets', async () => {
    const all = await h.client.request({
      command: 'gateway_balances',
      account: issuer.address,
      ledger_index: 'validated',
    });
    expect(all.result.obligations).toEqual({ USD: '250.5' });
    const hot = await h.client.request({
      command: 'gateway_balances',
      account: issuer.address,
      hotwallet: [alice.address],
    });
    expect(hot.result.obligations).toBeUndefined();
    expect(hot.result.balances).toEqual({ [alice.address]: [{ currency: 'USD', value: '250.5' }] });
    const holder = await h.client.request({ command: 'gateway_balances', account: alice.address });
    expect(holder.result.assets).toEqual({ [issuer.address]: [{ currency: 'USD', value: '250.5' }] });
    await expect(
      h.client.request({ command: 'gateway_balances', account: issuer.address, hotwallet: 'nope' }),
    ).rejects.toMatchObject({
      data: { error: 'invalidHotWallet' },
    });
  });

  it('noripple_check for users and gateways', async () => {
    const user = await h.client.request({
      command: 'noripple_check',
      account: alice.address,
      role: 'user',
      transactions: true,
    });
    expect(user.result.problems).toEqual([
      `You should probably set the no ripple flag on your USD line to ${issuer.address}`,
    ]);
    expect(user.result.transactions?.[0]).toMatchObject({
      TransactionType: 'TrustSet',
      Flags: 0x20000,
      Account: alice.address,
    });
    const gateway = await h.client.request({
      command: 'noripple_check',
      account: issuer.address,
      role: 'gateway',
    });
    expect(gateway.result.problems).toEqual([]);
    const notGateway = await h.client.request({
      command: 'noripple_check',
      account: bob.address,
      role: 'gateway',
      transactions: true,
    });
    expect(notGateway.result.problems[0]).toBe('You should immediately set your default ripple flag');
    expect(notGateway.result.transactions?.[0]).toMatchObject({ TransactionType: 'AccountSet', SetFlag: 8 });
  });
});

describe('transactions', () => {
  it('tx in v2, v1 and binary forms; txnNotFound', async () => {
    const v2 = await h.client.request({ command: 'tx', transaction: paymentHash });
    expect(v2.result).toMatchObject({
      hash: paymentHash,
      validated: true,
      tx_json: { DeliverMax: '1234567' },
    });
    expect(v2.result.tx_json).not.toHaveProperty('Amount');
    expect(typeof v2.result.close_time_iso).toBe('string');
    expect((v2.result as { ledger_hash?: string }).ledger_hash).toMatch(/^[0-9A-F]{64}$/);
    expect((v2.result.meta as { delivered_amount: string }).delivered_amount).toBe('1234567');
    const v1 = await h.client.request({ command: 'tx', transaction: paymentHash, api_version: 1 });
    expect(v1.result).toMatchObject({
      Amount: '1234567',
      DeliverMax: '1234567',
      hash: paymentHash,
      validated: true,
    });
    const binary = await h.client.request({ command: 'tx', transaction: paymentHash, binary: true });
    expect(hashes.hashSignedTx((binary.result as { tx_blob?: string }).tx_blob as string)).toBe(paymentHash);
    expect(typeof binary.result.meta_blob).toBe('string');
    await expect(h.client.request({ command: 'tx', transaction: 'A'.repeat(64) })).rejects.toMatchObject({
      data: { error: 'txnNotFound' },
    });
    // The concise id (XLS-37) names the same transaction.
    expect(v2.result.ctid).toMatch(/^C[0-9A-F]{15}$/);
    const byCtid = await h.client.request({ command: 'tx', ctid: v2.result.ctid });
    expect(byCtid.result.hash).toBe(paymentHash);
    await expect(h.client.request({ command: 'tx', ctid: 'C000000100000001' })).rejects.toMatchObject({
      data: { error: 'wrongNetwork' },
    });
  });

  it('transaction_entry finds a transaction in a given ledger only', async () => {
    const tx = await h.client.request({ command: 'tx', transaction: paymentHash });
    const index = tx.result.ledger_index as number;
    const entry = await h.client.request({
      command: 'transaction_entry',
      tx_hash: paymentHash,
      ledger_index: index,
    });
    expect(entry.result).toMatchObject({
      ledger_index: index,
      validated: true,
      tx_json: { DeliverMax: '1234567' },
    });
    await expect(
      h.client.request({ command: 'transaction_entry', tx_hash: paymentHash, ledger_index: index - 1 }),
    ).rejects.toMatchObject({ data: { error: 'transactionNotFound' } });
    await expect(
      h.client.request({ command: 'transaction_entry', tx_hash: paymentHash }),
    ).rejects.toMatchObject({
      data: { error: 'notYetImplemented' },
    });
  });

  it('submit returns rippled’s fields; submitAndWait validates', async () => {
    const payment: Payment = {
      TransactionType: 'Payment',
      Account: bob.address,
      Destination: alice.address,
      Amount: '1000',
    };
    const signed = bob.sign(await h.client.autofill(payment));
    const reply = await h.client.request({ command: 'submit', tx_blob: signed.tx_blob });
    expect(reply.result).toMatchObject({
      engine_result: 'tesSUCCESS',
      engine_result_code: 0,
      accepted: true,
      applied: true,
      kept: true,
      queued: false,
      tx_blob: signed.tx_blob,
      tx_json: { Amount: '1000', hash: signed.hash },
    });
    h.ledger.closeLedger();
    const memo = { Memo: { MemoData: convertStringToHex('hello') } };
    const interval = setInterval(() => h.ledger.closeLedger(), 100);
    try {
      const waited = await h.client.submitAndWait(
        {
          TransactionType: 'Payment',
          Account: alice.address,
          Destination: bob.address,
          Amount: '5',
          Memos: [memo],
        },
        { wallet: alice },
      );
      expect(waited.result.validated).toBe(true);
      expect(waited.result.tx_json.Memos).toEqual([memo]);
    } finally {
      clearInterval(interval);
    }
  });

  it('holds a future-sequence transaction (terPRE_SEQ, kept) and applies it after the gap fills', async () => {
    const info = await h.client.request({
      command: 'account_info',
      account: bob.address,
      ledger_index: 'current',
    });
    const seq = info.result.account_data.Sequence;
    const base = {
      TransactionType: 'Payment',
      Account: bob.address,
      Destination: alice.address,
      Fee: '10',
      Flags: 0,
    } as const;
    const later = bob.sign({ ...base, Amount: '2', Sequence: seq + 1 });
    const early = bob.sign({ ...base, Amount: '1', Sequence: seq });
    const held = await h.client.request({ command: 'submit', tx_blob: later.tx_blob });
    expect(held.result).toMatchObject({
      engine_result: 'terPRE_SEQ',
      applied: false,
      kept: true,
      queued: false,
      accepted: true,
    });
    const first = await h.client.request({ command: 'submit', tx_blob: early.tx_blob });
    expect(first.result.engine_result).toBe('tesSUCCESS');
    h.ledger.closeLedger();
    h.ledger.closeLedger();
    for (const hash of [early.hash, later.hash]) {
      const tx = await h.client.request({ command: 'tx', transaction: hash });
      expect(tx.result.validated).toBe(true);
      expect((tx.result.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
    }
  });

  it('sign and sign-and-submit with a secret (admin trusted signing)', async () => {
    const tx = {
      TransactionType: 'Payment',
      Account: bob.address,
      Destination: alice.address,
      Amount: '777',
    };
    const signed = (await h.client.connection.request({
      command: 'sign',
      tx_json: tx,
      secret: bob.seed,
    })) as {
      result: { tx_blob: string; tx_json: Record<string, unknown> };
    };
    expect(hashes.hashSignedTx(signed.result.tx_blob)).toBe(signed.result.tx_json.hash);
    expect(signed.result.tx_json).toMatchObject({ Fee: '10', SigningPubKey: bob.publicKey });
    const submitted = (await h.client.connection.request({
      command: 'submit',
      tx_json: tx,
      secret: bob.seed,
    })) as {
      result: { engine_result: string; tx_json: Record<string, unknown> };
    };
    expect(submitted.result.engine_result).toBe('tesSUCCESS');
    await expect(
      h.client.connection.request({ command: 'sign', tx_json: tx, secret: alice.seed }),
    ).rejects.toMatchObject({
      data: { error: 'badSecret' },
    });
    await expect(h.client.connection.request({ command: 'sign', tx_json: tx })).rejects.toMatchObject({
      data: { error: 'invalidParams' },
    });
    h.ledger.closeLedger();
  });

  it('account_tx pages newest-first or forward, in v1 and v2 shapes', async () => {
    const all = await h.client.request({ command: 'account_tx', account: alice.address });
    const n = all.result.transactions.length;
    expect(n).toBeGreaterThanOrEqual(4);
    expect(all.result.transactions[0]).toMatchObject({
      validated: true,
      hash: expect.any(String),
      tx_json: expect.any(Object),
    });
    const order = all.result.transactions.map((t) => t.ledger_index);
    expect([...order].sort((a, b) => b - a)).toEqual(order);
    const collected: string[] = [];
    let marker: unknown;
    do {
      const page = await h.client.request({
        command: 'account_tx',
        account: alice.address,
        limit: 1,
        forward: true,
        marker,
      });
      collected.push(...page.result.transactions.map((t) => t.hash as string));
      marker = page.result.marker;
    } while (marker);
    expect(collected).toEqual(all.result.transactions.map((t) => t.hash).reverse());
    const v1 = await h.client.request({
      command: 'account_tx',
      account: alice.address,
      api_version: 1,
      limit: 1,
    });
    expect(v1.result.transactions[0]?.tx).toMatchObject({
      hash: expect.any(String),
      ledger_index: expect.any(Number),
    });
    const binary = await h.client.request({
      command: 'account_tx',
      account: alice.address,
      binary: true,
      limit: 1,
    });
    expect(typeof binary.result.transactions[0]?.tx_blob).toBe('string');
    const ranged = await h.client.request({
      command: 'account_tx',
      account: alice.address,
      ledger_index_min: order[0],
      ledger_index_max: order[0],
    });
    expect(ranged.result.transactions.every((t) => t.ledger_index === order[0])).toBe(true);
  });
});

describe('genesis', () => {
  it('holds the rest of the 100 billion XRP', async () => {
    const info = await h.client.request({
      command: 'account_info',
      account: genesis.address,
      ledger_index: 'validated',
    });
    expect(BigInt(info.result.account_data.Balance)).toBeGreaterThan(99_999_000_000_000_000n);
  });
});
