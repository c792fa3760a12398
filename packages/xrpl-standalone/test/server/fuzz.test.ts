// Every method against wrong-typed and garbage parameters: each reply is a well-formed envelope,
// never an internal error, and the ledger state is untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methods } from '../../src/server/methods';
import { genesis, rawSocket, rpc, startHarness, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const FIELDS = [
  'account',
  'peer',
  'ledger_index',
  'ledger_hash',
  'limit',
  'marker',
  'type',
  'binary',
  'transactions',
  'expand',
  'transaction',
  'tx_blob',
  'streams',
  'accounts',
  'hotwallet',
  'role',
  'index',
  'account_root',
  'ripple_state',
  'directory',
  'offer',
  'ticket',
  'amm',
  'ledger_index_min',
  'ledger_index_max',
  'forward',
  'signer_lists',
  'queue',
  'deletion_blockers_only',
  'ignore_default',
  'full',
  'accounts_proposed',
  'books',
  'strict',
];
const VALUES: unknown[] = [
  null,
  -1,
  1.5,
  2 ** 40,
  '',
  'x'.repeat(300),
  [],
  [1, 'a'],
  {},
  { a: { b: [] } },
  true,
  'validated',
  'ZZ',
];

describe('garbage parameters', () => {
  it('never produce an internal error or a state change', async () => {
    const before = h.ledger.node.current().header;
    const ws = await rawSocket(h.ledger.url);
    let id = 0;
    const commands = Object.keys(methods).filter((m) => m !== 'ledger_accept');
    for (const command of commands) {
      for (const field of FIELDS) {
        for (const value of VALUES) {
          id += 1;
          const request = { id, command, account: genesis.address, [field]: value };
          const reply = await ws.send(request);
          expect(reply.id, JSON.stringify(request)).toBe(id);
          expect(reply.type).toBe('response');
          expect(['success', 'error']).toContain(reply.status);
          expect(reply.error, JSON.stringify(request)).not.toBe('internal');
        }
      }
    }
    ws.close();
    const after = h.ledger.node.current().header;
    expect(after.ledger_index).toBe(before.ledger_index);
    expect(h.ledger.node.current().transactions).toHaveLength(0);
  });
});

describe('garbage over JSON-RPC', () => {
  it('answers every method with a result or rippled error, never a 5xx', async () => {
    for (const method of Object.keys(methods).filter((m) => m !== 'ledger_accept')) {
      for (const value of [null, 7, 'x', [], { a: 1 }]) {
        const res = await rpc(h, {
          method,
          params: [{ account: value, ledger_index: value, tx_blob: value, transaction: value }],
        });
        expect(res.status, method).toBe(200);
        const result = res.json?.result as { status?: string; error?: string } | undefined;
        expect(['success', 'error']).toContain(result?.status);
        expect(result?.error, method).not.toBe('internal');
      }
    }
  });
});
