import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicAddressToXAddress, Wallet, AMMDepositFlags, LedgerEntry } from 'xrpl';
import { RLUSD_CURRENCY_HEX, type WalletBalance } from '@ledgerpad/shared';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { platformWallet } from '../../src/platform/custody';
import { wallets } from '../../src/platform/custody-schema';
import type { SignedIn } from '../helpers/test-app';
import { createWalletTestApp, type WalletTestApp } from './wallet-app';

// Every Wallets endpoint through HTTP against the embedded ledger (closing every 100 ms), with the
// logger on at trace level so the last test can prove no seed was ever logged.

let t: WalletTestApp;
let alice: SignedIn;
let mallory: SignedIn;
const seeds: string[] = [];

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on', FAUCET_XRP: '1000', FAUCET_RLUSD: '500' });
  alice = await t.signIn('alice');
  mallory = await t.signIn('mallory');
});
afterAll(async () => {
  await t?.close();
});

/** Every response body of the run except wallet creations, scanned for seeds at the end. */
const bodies: string[] = [];

const call = async (
  who: SignedIn | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) => {
  const res = await t.app.inject({
    method,
    url,
    headers: who ? who.headers : {},
    ...(payload ? { payload } : {}),
  });
  if (!(method === 'POST' && url === '/api/wallets')) bodies.push(res.body);
  return res;
};

async function createWallet(who: SignedIn, name?: string) {
  const res = await call(who, 'POST', '/api/wallets', name ? { name } : {});
  expect(res.statusCode).toBe(200);
  const body = res.json() as { id: number; wallet_address: string; wallet_seed: string };
  seeds.push(body.wallet_seed);
  return body;
}

async function balanceOf(who: SignedIn, id: number): Promise<WalletBalance> {
  const res = await call(who, 'POST', '/api/wallets/balances', { wallets: [id] });
  expect(res.statusCode).toBe(200);
  return (res.json() as WalletBalance[])[0]!;
}

describe('wallets API', () => {
  let a1: { id: number; wallet_address: string; wallet_seed: string };
  let a2: { id: number; wallet_address: string; wallet_seed: string };

  it('needs a signed-in user', async () => {
    expect((await call(null, 'GET', '/api/wallets')).statusCode).toBe(401);
    expect((await call(null, 'POST', '/api/wallets')).statusCode).toBe(401);
  });

  it('reports the ledger connection', async () => {
    const res = await call(null, 'GET', '/api/wallets/xrpl/status');
    expect(res.json()).toEqual({ connected: true });
  });

  it('creates a wallet and shows its seed once, stored only encrypted', async () => {
    a1 = await createWallet(alice, 'Main');
    expect(Wallet.fromSeed(a1.wallet_seed).classicAddress).toBe(a1.wallet_address);
    const list = await call(alice, 'GET', '/api/wallets');
    expect(list.json().wallets).toEqual([
      expect.objectContaining({ id: a1.id, wallet_address: a1.wallet_address, wallet_name: 'Main' }),
    ]);
    expect(list.body).not.toContain(a1.wallet_seed);
    const [row] = await t.database.db.select().from(wallets).where(eq(wallets.id, a1.id));
    expect(JSON.stringify(row)).not.toContain(a1.wallet_seed);
    expect(row!.keyId).toBe(t.app.platform.keyring.current.id);
    a2 = await createWallet(alice);
    expect(
      (await call(alice, 'GET', '/api/wallets'))
        .json()
        .wallets.map((w: { wallet_name: string }) => w.wallet_name),
    ).toEqual(['Main', 'Wallet 2']);
  });

  it('enforces CSRF on wallet writes', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/wallets',
      headers: { cookie: alice.cookie },
      payload: {},
    });
    expect(res.statusCode).toBe(403);
  });

  it('shows a new wallet as Not Activated, then funded from the faucet', async () => {
    const before = await balanceOf(alice, a1.id);
    expect(before).toMatchObject({
      id: a1.id,
      wallet_address: a1.wallet_address,
      balance: '0',
      status: 'Not Activated',
      tokens: [],
    });
    const fund = await call(alice, 'POST', `/api/wallets/${a1.id}/fund`);
    expect(fund.statusCode).toBe(200);
    expect(fund.json()).toMatchObject({ success: true, amount: '1000' });
    expect((await call(alice, 'POST', `/api/wallets/${a2.id}/fund`)).statusCode).toBe(200);
    const after = await balanceOf(alice, a1.id);
    expect(after).toMatchObject({ balance: '1000', status: 'Activated', ledgerReserve: '1' });
    const all = (await call(alice, 'POST', '/api/wallets/balances', {})).json() as WalletBalance[];
    expect(all.map((w) => w.id)).toEqual([a1.id, a2.id]);
  });

  it('computes the reserve as base + owner count × increment', async () => {
    const res = await call(alice, 'GET', `/api/wallets/${a1.id}/ledger-objects`);
    expect(res.json()).toMatchObject({
      reserve: '1',
      baseReserve: '1',
      ownerReserve: '0.2',
      ownerCount: 0,
      objects: [],
    });
  });

  it('answers 404 for another user’s wallet on every route', async () => {
    const id = a1.id;
    const checks = [
      call(mallory, 'GET', `/api/wallets/${id}/ledger-objects`),
      call(mallory, 'GET', `/api/wallets/${id}/trustlines`),
      call(mallory, 'PUT', `/api/wallets/${id}/name`, { name: 'mine now' }),
      call(mallory, 'DELETE', `/api/wallets/${id}`),
      call(mallory, 'POST', `/api/wallets/${id}/fund`),
      call(mallory, 'POST', `/api/wallets/${id}/fund-rlusd`),
      call(mallory, 'POST', '/api/wallets/transfer', {
        walletId: id,
        recipient: Wallet.generate().classicAddress,
        amount: '1',
        token: null,
      }),
      call(mallory, 'POST', '/api/wallets/remove-trustline', {
        walletId: id,
        issuer: a2.wallet_address,
        currency: 'USD',
      }),
      call(mallory, 'GET', `/api/wallets/999999/trustlines`),
    ];
    for (const res of await Promise.all(checks)) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Wallet not found');
    }
    expect((await call(mallory, 'POST', '/api/wallets/balances', { wallets: [id] })).json()).toEqual([]);
    const [row] = await t.database.db.select().from(wallets).where(eq(wallets.id, id));
    expect(row!.name).toBe('Main');
    expect(row!.archivedAt).toBeNull();
  });

  it('renames a wallet', async () => {
    const res = await call(alice, 'PUT', `/api/wallets/${a2.id}/name`, { name: 'Savings' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: a2.id, wallet_name: 'Savings' });
    expect((await call(alice, 'PUT', `/api/wallets/${a2.id}/name`, { name: '  ' })).json().message).toBe(
      'Please fill in all fields.',
    );
  });

  describe('transfer', () => {
    it('requires recipient and amount', async () => {
      const res = await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: a1.id,
        recipient: '',
        amount: '',
        token: null,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Please fill all fields');
    });

    it('refuses more than the available balance (balance − reserve) and signs nothing', async () => {
      const before = await t.database.db
        .select()
        .from(ledgerSubmissions)
        .where(eq(ledgerSubmissions.walletId, a1.id));
      const res = await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: a1.id,
        recipient: a2.wallet_address,
        amount: '999.5',
        token: null,
        memo: null,
      });
      expect(res.statusCode).toBe(400);
      // Both figures: 1000 − 1 reserve available; 999.5 + one network fee of 10 drops needed.
      expect(res.json()).toMatchObject({
        message: 'Insufficient balance: you have 999 XRP available, this needs 999.50001 XRP.',
        available: '999',
        needed: '999.50001',
      });
      const after = await t.database.db
        .select()
        .from(ledgerSubmissions)
        .where(eq(ledgerSubmissions.walletId, a1.id));
      expect(after).toHaveLength(before.length);
    });

    it('sends XRP with a memo and returns the validated result', async () => {
      const res = await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: a1.id,
        recipient: a2.wallet_address,
        amount: '12.5',
        token: null,
        memo: 'rent',
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ success: true, delivered_amount: '12.5' });
      const tx = await t.connection.client.request({ command: 'tx', transaction: body.hash });
      expect(tx.result.validated).toBe(true);
      const json = (tx.result as unknown as { tx_json: { Memos: Array<{ Memo: { MemoData: string } }> } })
        .tx_json;
      expect(Buffer.from(json.Memos[0]!.Memo.MemoData, 'hex').toString('utf8')).toBe('rent');
      expect((await balanceOf(alice, a2.id)).balance).toBe('1012.5');
      expect((await balanceOf(alice, a1.id)).balance).toBe('987.49999');
    });

    it('understands X-addresses with their destination tag', async () => {
      // The embedded ledger is a test network: a mainnet X-address is refused before anything is signed.
      const mainnetX = classicAddressToXAddress(a2.wallet_address, 4242, false);
      const refused = await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: a1.id,
        recipient: mainnetX,
        amount: 1,
        token: null,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fields).toEqual([
        { path: 'recipient', message: expect.stringContaining('X-address for mainnet') },
      ]);
      const x = classicAddressToXAddress(a2.wallet_address, 4242, true);
      const res = await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: a1.id,
        recipient: x,
        amount: 1,
        token: null,
      });
      expect(res.statusCode).toBe(200);
      const tx = await t.connection.client.request({ command: 'tx', transaction: res.json().hash });
      const json = (tx.result as unknown as { tx_json: { Destination: string; DestinationTag: number } })
        .tx_json;
      expect(json.Destination).toBe(a2.wallet_address);
      expect(json.DestinationTag).toBe(4242);
    });

    it('honours Idempotency-Key: a retried request never pays twice', async () => {
      const key = 'retry-test-0001';
      const send = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/wallets/transfer',
          headers: { ...alice.headers, 'idempotency-key': key },
          payload: { walletId: a1.id, recipient: a2.wallet_address, amount: '2', token: null },
        });
      const [first, second] = await Promise.all([send(), send()]);
      const third = await send();
      expect(first.json().hash).toBe(second.json().hash);
      expect(third.json().hash).toBe(first.json().hash);
      expect((await balanceOf(alice, a2.id)).balance).toBe('1015.5');
    });

    it('explains a recipient that is not activated or that requires a destination tag', async () => {
      const fresh = await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: a1.id,
        recipient: Wallet.generate().classicAddress,
        amount: '0.5',
        token: null,
      });
      expect(fresh.statusCode).toBe(400);
      expect(fresh.json().message).toBe(
        'The recipient account is not activated yet: send at least 1 XRP to activate it.',
      );
      const flag = (SetFlag: number | undefined, ClearFlag?: number) =>
        t.app.platform.submissions!.submit({
          intentKey: `test-require-dest-${SetFlag ?? 'x'}-${ClearFlag ?? 'x'}`,
          account: a2.wallet_address,
          tx: {
            TransactionType: 'AccountSet',
            ...(SetFlag ? { SetFlag } : {}),
            ...(ClearFlag ? { ClearFlag } : {}),
          },
          purpose: 'test',
        });
      expect((await flag(1)).result).toBe('tesSUCCESS'); // asfRequireDest
      const untagged = await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: a1.id,
        recipient: a2.wallet_address,
        amount: '1',
        token: null,
      });
      expect(untagged.statusCode).toBe(400);
      expect(untagged.json().message).toBe('The recipient requires a destination tag.');
      const tagged = await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: a1.id,
        recipient: a2.wallet_address,
        amount: '1',
        token: null,
        destinationTag: 7,
      });
      expect(tagged.statusCode).toBe(200);
      expect((await flag(undefined, 1)).result).toBe('tesSUCCESS');
      expect((await balanceOf(alice, a2.id)).balance).toBe('1016.49998');
    });

    it('refuses silently when the honeypot is filled', async () => {
      const res = await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: a1.id,
        recipient: a2.wallet_address,
        amount: '1',
        token: null,
        honeypot: 'I am a bot',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Something went wrong. Please check and try again.');
    });

    it('rejects an invalid recipient', async () => {
      const res = await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: a1.id,
        recipient: 'rNotAnAddress',
        amount: '1',
        token: null,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('recipient must be a valid XRPL address');
      expect(res.json().fields).toEqual([
        { path: 'recipient', message: 'recipient must be a valid XRPL address' },
      ]);
    });
  });

  describe('tokens (RLUSD from the stand-alone faucet)', () => {
    let issuer: string;

    beforeAll(async () => {
      await t.app.platform.accounts.bootstrapped();
      issuer = (await platformWallet(t.database.db, PLATFORM_ROLES.rlusdIssuer))!.address;
    });

    it('bootstrapped the RLUSD issuer with DefaultRipple and the XRP/RLUSD pool at 2.20', async () => {
      const info = await t.connection.client.request({
        command: 'account_info',
        account: issuer,
        ledger_index: 'validated',
      });
      expect(info.result.account_data.Flags & LedgerEntry.AccountRootFlags.lsfDefaultRipple).toBeTruthy();
      const amm = await t.connection.client.request({
        command: 'amm_info',
        asset: { currency: 'XRP' },
        asset2: { currency: RLUSD_CURRENCY_HEX, issuer },
      });
      const pool = amm.result.amm;
      expect(pool.amount).toBe('100000000000');
      expect(pool.amount2).toMatchObject({ currency: RLUSD_CURRENCY_HEX, issuer, value: '220000' });
      for (const role of ['market_maker', 'fee', 'service', 'genesis']) {
        expect(await platformWallet(t.database.db, role)).toBeDefined();
      }
    });

    it('gives RLUSD (opening the trust line) and lists it decoded', async () => {
      const res = await call(alice, 'POST', `/api/wallets/${a1.id}/fund-rlusd`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, amount: '500' });
      const bal = await balanceOf(alice, a1.id);
      expect(bal.tokens).toEqual([
        { currency: 'RLUSD', currencyCode: RLUSD_CURRENCY_HEX, issuer, realIssuer: issuer, value: '500' },
      ]);
      expect(bal.ledgerReserve).toBe('1.2');
      expect(bal.trustlines).toEqual([{ currency: 'RLUSD', currencyCode: RLUSD_CURRENCY_HEX, issuer }]);
      const lines = (await call(alice, 'GET', `/api/wallets/${a1.id}/trustlines`)).json();
      expect(lines.trustlines).toEqual([
        expect.objectContaining({
          currency: 'RLUSD',
          currencyCode: RLUSD_CURRENCY_HEX,
          issuer,
          balance: '500',
        }),
      ]);
      expect((await call(alice, 'GET', `/api/wallets/${a1.id}/ledger-objects`)).json()).toMatchObject({
        reserve: '1.2',
        ownerCount: 1,
        objects: [expect.objectContaining({ type: 'RippleState' })],
      });
    });

    it('sends tokens up to the held balance only', async () => {
      expect((await call(alice, 'POST', `/api/wallets/${a2.id}/fund-rlusd`)).statusCode).toBe(200);
      const over = await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: a1.id,
        recipient: a2.wallet_address,
        amount: '500.01',
        token: { currency: 'RLUSD', issuer },
      });
      expect(over.statusCode).toBe(400);
      expect(over.json().message).toBe(
        'Insufficient balance: you have 500 RLUSD available, this needs 500.01 RLUSD.',
      );
      const ok = await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: a1.id,
        recipient: a2.wallet_address,
        amount: '100.25',
        token: { currency: RLUSD_CURRENCY_HEX, issuer },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().delivered_amount).toBe('100.25');
      expect((await balanceOf(alice, a2.id)).tokens[0]!.value).toBe('600.25');
    });

    it('explains a recipient without a trust line for the token', async () => {
      const res = await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: a1.id,
        recipient: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
        amount: '1',
        token: { currency: 'RLUSD', issuer },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('The recipient has no trust line for this token.');
    });

    it('names LP tokens LP-{TICKER} with the real issuer', async () => {
      const out = await t.app.platform.submissions!.submit({
        intentKey: 'test-lp-deposit',
        account: a2.wallet_address,
        tx: {
          TransactionType: 'AMMDeposit',
          Asset: { currency: 'XRP' },
          Asset2: { currency: RLUSD_CURRENCY_HEX, issuer },
          Amount: '10000000',
          Flags: AMMDepositFlags.tfSingleAsset,
        },
        purpose: 'test',
      });
      expect(out.result).toBe('tesSUCCESS');
      const bal = await balanceOf(alice, a2.id);
      const lp = bal.tokens.find((tk) => tk.lpName);
      expect(lp).toMatchObject({ lpName: 'LP-RLUSD', realIssuer: issuer });
      expect(lp!.currencyCode.startsWith('03')).toBe(true);
    });

    it('removes only an empty trust line, and says why otherwise', async () => {
      const busy = await call(alice, 'POST', '/api/wallets/remove-trustline', {
        walletId: a1.id,
        issuer,
        currency: 'RLUSD',
      });
      expect(busy.statusCode).toBe(400);
      expect(busy.json().message).toMatch(
        /still holds 399\.75 RLUSD.*only an empty trust line can be removed/,
      );
      // Send everything back to the issuer, then the line can go.
      const back = await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: a1.id,
        recipient: issuer,
        amount: '399.75',
        token: { currency: 'RLUSD', issuer },
      });
      expect(back.statusCode).toBe(200);
      const removed = await call(alice, 'POST', '/api/wallets/remove-trustline', {
        walletId: a1.id,
        issuer,
        currency: 'RLUSD',
      });
      expect(removed.statusCode).toBe(200);
      expect((await call(alice, 'GET', `/api/wallets/${a1.id}/trustlines`)).json().trustlines).toEqual([]);
      expect((await balanceOf(alice, a1.id)).ledgerReserve).toBe('1');
    });
  });

  describe('import', () => {
    it('imports by seed, and answers 400 Wallet Already Exists the second time', async () => {
      const w = Wallet.generate();
      seeds.push(w.seed!);
      const first = await call(alice, 'POST', '/api/wallets/import', { seed: w.seed });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ wallet_address: w.classicAddress });
      expect(first.body).not.toContain(w.seed);
      const again = await call(alice, 'POST', '/api/wallets/import', { seed: w.seed });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe('Wallet Already Exists');
      // Another user may hold the same wallet.
      expect((await call(mallory, 'POST', '/api/wallets/import', { seed: w.seed })).statusCode).toBe(200);
    });

    it('imports a BIP39 mnemonic and checks the word count', async () => {
      const words =
        'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
      const ok = await call(alice, 'POST', '/api/wallets/import', {
        type: 'mnemonic',
        mnemonic: words,
        wordCount: 12,
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().wallet_address).toBe(Wallet.fromMnemonic(words).classicAddress);
      const short = await call(alice, 'POST', '/api/wallets/import', {
        type: 'mnemonic',
        mnemonic: words.split(' ').slice(0, 11).join(' '),
        wordCount: 12,
      });
      expect(short.statusCode).toBe(400);
      expect(short.json().message).toBe('Please enter exactly 12 words.');
      const picked24 = await call(alice, 'POST', '/api/wallets/import', {
        type: 'mnemonic',
        mnemonic: words,
        wordCount: 24,
      });
      expect(picked24.json().message).toBe('Please enter exactly 24 words.');
      const thirteen = await call(alice, 'POST', '/api/wallets/import', { mnemonic: `${words} abandon` });
      expect(thirteen.json().message).toBe('Please enter exactly 14 words.');
      const badWord = await call(alice, 'POST', '/api/wallets/import', {
        mnemonic: words.replace('about', 'zzzz'),
        wordCount: 12,
      });
      expect(badWord.statusCode).toBe(400);
      expect(badWord.json().message).toBe('Invalid mnemonic. Please check it and try again.');
      expect(badWord.body).not.toContain('zzzz');
    });

    it('imports RFC-1751 key words, preferring the key pair that exists on the ledger', async () => {
      // rippled's wallet_propose words for the stand-alone genesis account (secp256k1).
      const res = await call(alice, 'POST', '/api/wallets/import', {
        mnemonic: 'I IRE BOND BOW TRIO LAID SEAT GOAL HEN IBIS IBIS DARE',
        wordCount: 12,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().wallet_address).toBe('rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh');
    });

    it('imports by private key (secp256k1 and ed25519)', async () => {
      for (const w of [Wallet.generate(), Wallet.generate('ecdsa-secp256k1' as never)]) {
        const res = await call(alice, 'POST', '/api/wallets/import', {
          type: 'privateKey',
          privateKey: w.privateKey,
        });
        expect(res.statusCode).toBe(200);
        expect(res.json().wallet_address).toBe(w.classicAddress);
        expect(res.body).not.toContain(w.privateKey);
      }
      const bad = await call(alice, 'POST', '/api/wallets/import', {
        type: 'privateKey',
        privateKey: 'nothex',
      });
      expect(bad.json().message).toBe('Invalid private key. Please check it and try again.');
    });
  });

  it('archives a wallet: gone from every list and route, key kept, importable again', async () => {
    const del = await call(alice, 'DELETE', `/api/wallets/${a2.id}`);
    expect(del.statusCode).toBe(200);
    const list = (await call(alice, 'GET', '/api/wallets')).json().wallets as Array<{ id: number }>;
    expect(list.map((w) => w.id)).not.toContain(a2.id);
    expect(
      ((await call(alice, 'POST', '/api/wallets/balances', {})).json() as WalletBalance[]).map((w) => w.id),
    ).not.toContain(a2.id);
    expect((await call(alice, 'GET', `/api/wallets/${a2.id}/trustlines`)).statusCode).toBe(404);
    const [row] = await t.database.db.select().from(wallets).where(eq(wallets.id, a2.id));
    expect(row!.archivedAt).not.toBeNull();
    expect(row!.secretCiphertext?.length).toBeGreaterThan(0);
    const back = await call(alice, 'POST', '/api/wallets/import', { seed: a2.wallet_seed });
    expect(back.statusCode).toBe(200);
    expect(back.json().id).toBe(a2.id);
  });

  it('never logged a seed, and returned seeds only from create', async () => {
    expect(t.logs.length).toBeGreaterThan(10);
    const all = t.logs.join('\n');
    expect(all).toContain('/api/wallets');
    for (const seed of seeds) expect(all).not.toContain(seed);
    const responses = bodies.join('\n');
    expect(bodies.length).toBeGreaterThan(50);
    for (const seed of seeds) expect(responses).not.toContain(seed);
    expect(responses).not.toContain('wallet_seed');
    expect(all).not.toContain('wallet_seed');
    expect(all).not.toContain('snoPBrXtMeMyMHUVTgbuqAfg1SUTb');
  });
});
