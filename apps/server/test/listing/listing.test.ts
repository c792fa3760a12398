import { and, eq } from 'drizzle-orm';
import Decimal from 'decimal.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type Client } from 'xrpl';
import { DEPLOY_MESSAGES, IDENTITY_MESSAGES, LISTING_MESSAGES, type TokenView } from '@ledgerpad/shared';
import { tokens } from '../../src/modules/tokens/schema';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/test-app';
import { multipart } from '../uploads/helpers';
import { fundedAccount, issueToken } from './issuer-fixture';
import { submitAndWait } from '../helpers/submit-and-wait';

// POST /api/gateway-balances and POST /api/admin/tokens/add through HTTP against the embedded
// ledger (closing every 100 ms), with issuers made on that ledger by xrpl.js in the test itself.
// Expected supplies are the sums of what the test issued, computed here with decimal.js.

const ADD = '/api/admin/tokens/add';
const BALANCES = '/api/gateway-balances';

let t: TestApp;
let client: Client;
let alice: SignedIn;
let bob: SignedIn;
let owner: SignedIn;

beforeAll(async () => {
  t = await createTestApp({ closeIntervalMs: 100 });
  await t.app.ready();
  client = t.ledger!.client;
  alice = await t.signIn('alice');
  bob = await t.signIn('bob');
  owner = await t.signInOwner();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const post = (url: string, who: SignedIn | null, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: who ? who.headers : {}, payload: payload as object });

const sum = (amounts: string[]) => amounts.reduce((acc, a) => acc.plus(a), new Decimal(0)).toFixed();
/** The 160-bit code in hex: a 3-character code sits at bytes 12–14; longer tickers are padded ASCII. */
const hexOf = (ticker: string) =>
  ticker.length === 3
    ? `${'00'.repeat(12)}${Buffer.from(ticker, 'ascii').toString('hex')}${'00'.repeat(5)}`.toUpperCase()
    : Buffer.from(ticker, 'ascii').toString('hex').toUpperCase().padEnd(40, '0');

const form = (issuer: string, extra: Record<string, unknown> = {}) => ({
  issuer_address: issuer,
  name: 'Test Token',
  description: 'A token made on the embedded ledger.',
  twitterLink: 'https://x.com/ledgerpad',
  telegramLink: 'https://t.me/ledgerpad',
  websiteLink: 'https://ledgerpad.example',
  ...extra,
});

const rowsOf = (issuer: string) =>
  t.database.db.select().from(tokens).where(eq(tokens.issuerAddress, issuer));

describe('POST /api/gateway-balances', () => {
  const usd = ['1234.5', '100.25'];
  const long = ['42000000'];
  let issuer: Wallet;

  beforeAll(async () => {
    ({ issuer } = await issueToken(client, { ticker: 'USD', amounts: usd }));
    await issueToken(client, { ticker: 'LEDGERPAD', amounts: long, issuer });
  }, 60_000);

  it('needs a signed-in user', async () => {
    expect((await post(BALANCES, null, { account: issuer.address })).statusCode).toBe(401);
  });

  it('answers the currencies the account issues: ascii, hex and the outstanding value', async () => {
    const res = await post(BALANCES, alice, { account: issuer.address });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      account: issuer.address,
      tokens: [
        { currency: hexOf('LEDGERPAD'), ascii: 'LEDGERPAD', hex: hexOf('LEDGERPAD'), value: sum(long) },
        { currency: 'USD', ascii: 'USD', hex: hexOf('USD'), value: sum(usd) },
      ],
      is_blackholed: false,
      require_auth: false,
    });
  });

  it('answers an empty list for an account that issues nothing', async () => {
    const plain = await fundedAccount(client, 20);
    const res = await post(BALANCES, alice, { account: plain.address });
    expect(res.statusCode).toBe(200);
    expect(res.json().tokens).toEqual([]);
  });

  it('refuses a bad address with a 400 naming the field, and an unknown account with a 400 naming it', async () => {
    const bad = await post(BALANCES, alice, { account: 'rNotAnAddress' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('account must be a valid XRPL address');
    const missing = await post(BALANCES, alice, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('account must be a valid XRPL address');
    const ghost = Wallet.generate().address;
    const unknown = await post(BALANCES, alice, { account: ghost });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      `The issuer ${ghost.slice(0, 6)}…${ghost.slice(-4)} does not exist on the XRP Ledger.`,
    );
  });
});

describe('POST /api/admin/tokens/add', () => {
  it('refuses anonymous callers', async () => {
    const res = await post(ADD, null, form(Wallet.generate().address));
    expect(res.statusCode).toBe(401);
  });

  it('lists a token with the supply and flags the ledger gives, whatever the form says', async () => {
    const amounts = ['500', '0.125', '77'];
    const { issuer, currency, firstLineAt } = await issueToken(client, { ticker: 'ZED', amounts });
    const res = await post(
      ADD,
      alice,
      form(issuer.address, {
        name: '<b>Zed</b> Coin',
        supply: '999999999',
        is_blackholed: true,
        created_at: '2024-03-05',
      }),
    );
    expect(res.statusCode).toBe(200);
    const token = (res.json() as { token: TokenView }).token;
    expect(token).toMatchObject({
      name: 'Zed Coin',
      ticker: 'ZED',
      currency,
      issuer_address: issuer.address,
      supply: sum(amounts),
      is_blackholed: false,
      launch_type: 'listing',
      // The first trust line's ledger close, not the form's '2024-03-05' (a user is not an admin).
      created_at: firstLineAt!.toISOString(),
      links: {
        Twitter: 'https://x.com/ledgerpad',
        Telegram: 'https://t.me/ledgerpad',
        Website: 'https://ledgerpad.example',
      },
    });
    const [row] = await rowsOf(issuer.address);
    expect(row).toMatchObject({ source: 'listing', listedByUserId: alice.user.id, supply: sum(amounts) });

    // It is on the home list and found by issuer.
    const list = (await t.app.inject('/api/tokens')).json() as TokenView[];
    expect(list.map((x) => x.issuer_address)).toContain(issuer.address);
    const byIssuer = await t.app.inject(`/api/tokens/issuer/${issuer.address}`);
    expect(byIssuer.json()).toMatchObject({ id: token.id, supply: sum(amounts) });

    // A second listing of the same token, by anybody, is a 409.
    const again = await post(ADD, bob, form(issuer.address, { name: 'Zed Again' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Token Already Listed');
    const byCode = await post(ADD, bob, form(issuer.address, { currency: 'ZED' }));
    expect(byCode.statusCode).toBe(409);
    expect(byCode.json().message).toBe('Token Already Listed');
    expect(await rowsOf(issuer.address)).toHaveLength(1);
  });

  it('reads blackhole status from the ledger: regular key ACCOUNT_ONE and master disabled', async () => {
    const { issuer } = await issueToken(client, { ticker: 'HOLE', amounts: ['1000'], blackhole: true });
    const res = await post(ADD, alice, form(issuer.address, { is_blackholed: false }));
    expect(res.statusCode).toBe(200);
    expect(res.json().token).toMatchObject({ ticker: 'HOLE', is_blackholed: true, supply: '1000' });
    const balances = await post(BALANCES, alice, { account: issuer.address });
    expect(balances.json()).toMatchObject({
      is_blackholed: true,
      tokens: [{ ascii: 'HOLE', value: '1000' }],
    });
  });

  it('does not call an issuer blackholed while its master key still signs', async () => {
    const { issuer } = await issueToken(client, { ticker: 'KEY', amounts: ['5'] });
    await submitAndWait(
      client,
      { TransactionType: 'SetRegularKey', Account: issuer.address, RegularKey: 'rrrrrrrrrrrrrrrrrrrrBZbvji' },
      issuer,
    );
    const res = await post(ADD, alice, form(issuer.address));
    expect(res.json().token.is_blackholed).toBe(false);
  });

  it("ignores a non-admin's admin-only fields and honours an admin's", async () => {
    const flags = { is_new: false, is_market_listed: false, is_market_ready: false, is_active: false };
    const plain = await issueToken(client, { ticker: 'PLN', amounts: ['10'] });
    const byUser = await post(ADD, alice, form(plain.issuer.address, flags));
    expect(byUser.statusCode).toBe(200);
    const [userRow] = await rowsOf(plain.issuer.address);
    expect(userRow).toMatchObject({ isNew: true, isMarketListed: true, isMarketReady: true, isActive: true });

    const admin = await issueToken(client, { ticker: 'ADM', amounts: ['10'] });
    const byAdmin = await post(ADD, owner, form(admin.issuer.address, flags));
    expect(byAdmin.statusCode).toBe(200);
    const [adminRow] = await rowsOf(admin.issuer.address);
    expect(adminRow).toMatchObject({
      isNew: false,
      isMarketListed: false,
      isMarketReady: false,
      isActive: false,
    });
    const list = (await t.app.inject('/api/tokens')).json() as TokenView[];
    expect(list.map((x) => x.issuer_address)).not.toContain(admin.issuer.address);
  });

  it('picks among several currencies by currency code, hex code or ticker', async () => {
    const { issuer } = await issueToken(client, { ticker: 'AAA', amounts: ['1'] });
    const long = await issueToken(client, { ticker: 'LONGNAME', amounts: ['2.5', '2.5'], issuer });
    await issueToken(client, { ticker: 'CCC', amounts: ['3'], issuer });

    const unnamed = await post(ADD, alice, form(issuer.address));
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().message).toBe(LISTING_MESSAGES.pickCurrency);

    const byTicker = await post(ADD, alice, form(issuer.address, { ticker: 'LONGNAME' }));
    expect(byTicker.statusCode).toBe(200);
    expect(byTicker.json().token).toMatchObject({ ticker: 'LONGNAME', currency: long.currency, supply: '5' });
    const byHex = await post(ADD, alice, form(issuer.address, { token_hex: long.currency.toLowerCase() }));
    expect(byHex.statusCode).toBe(409);
    const byCode = await post(ADD, alice, form(issuer.address, { currency: 'AAA' }));
    expect(byCode.statusCode).toBe(200);
    expect(byCode.json().token).toMatchObject({ ticker: 'AAA', supply: '1' });
    expect(await rowsOf(issuer.address)).toHaveLength(2);
  });

  it('answers an unknown issuer, an account that issues nothing and a wrong currency with a clear 4xx', async () => {
    const ghost = Wallet.generate().address;
    const unknown = await post(ADD, alice, form(ghost));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      `The issuer ${ghost.slice(0, 6)}…${ghost.slice(-4)} does not exist on the XRP Ledger.`,
    );

    const plain = await fundedAccount(client, 20);
    const nothing = await post(ADD, alice, form(plain.address));
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toBe(LISTING_MESSAGES.issuesNothing);

    const { issuer } = await issueToken(client, { ticker: 'WRG', amounts: ['9'] });
    const wrong = await post(ADD, alice, form(issuer.address, { currency: 'USD' }));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(LISTING_MESSAGES.currencyNotIssued);
    expect(await rowsOf(issuer.address)).toHaveLength(0);
  });

  it('answers every form rule with its message and stores nothing', async () => {
    const { issuer } = await issueToken(client, { ticker: 'VAL', amounts: ['1'] });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: 'A' }, 'name', LISTING_MESSAGES.name],
      [{ name: 'x'.repeat(31) }, 'name', LISTING_MESSAGES.name],
      [{ name: 'Bad_Name!' }, 'name', LISTING_MESSAGES.name],
      [{ name: '<i></i>' }, 'name', LISTING_MESSAGES.name],
      [{ description: 'd'.repeat(1001) }, 'description', 'Description must be less than 1000 characters.'],
      [{ twitterLink: 'https://facebook.com/x' }, 'twitterLink', DEPLOY_MESSAGES.twitter],
      [
        { telegramLink: 'https://telegram.org/x' },
        'telegramLink',
        'Telegram link must be a valid public or invite link starting with https://t.me/',
      ],
      [
        { websiteLink: 'ftp://ledgerpad.example' },
        'websiteLink',
        'Website must start with http(s):// and be a valid URL.',
      ],
      [{ websiteLink: 'not a url' }, 'websiteLink', 'Website must start with http(s):// and be a valid URL.'],
      [{ logoUrl: 'https://evil.example/logo.png' }, 'logoUrl', LISTING_MESSAGES.logoUrl],
      [{ logoUrl: '/cdn/logos/../../etc/passwd' }, 'logoUrl', LISTING_MESSAGES.logoUrl],
      // Well formed, but no such upload.
      [{ logoUrl: `/cdn/logos/${'a'.repeat(64)}.png` }, 'logoUrl', LISTING_MESSAGES.logoUrl],
      [{ created_at: '2999-01-01' }, 'created_at', LISTING_MESSAGES.createdAt],
      [{ created_at: 'yesterday' }, 'created_at', LISTING_MESSAGES.createdAt],
      [{ issuer_address: 'rBogus' }, 'issuer_address', 'issuer_address must be a valid XRPL address'],
      [{ currency: 'XRP' }, 'currency', IDENTITY_MESSAGES.xrp],
      [{ currency: 'ABCD' }, 'currency', LISTING_MESSAGES.currency],
    ];
    for (const [extra, path, message] of cases) {
      const res = await post(ADD, alice, form(issuer.address, extra));
      expect({ extra, status: res.statusCode, message: res.json().message }).toEqual({
        extra,
        status: 400,
        message,
      });
      expect(res.json().fields.map((f: { path: string }) => f.path)).toContain(path);
    }
    // The limit itself is allowed.
    const ok = await post(
      ADD,
      alice,
      form(issuer.address, { description: 'd'.repeat(1000), websiteLink: 'N/A' }),
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json().token.websiteLink).toBeNull();
    expect(await rowsOf(issuer.address)).toHaveLength(1);
  });

  it('keeps a logo uploaded through POST /api/upload (purpose listing)', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#cc3366' } })
      .png()
      .toBuffer();
    const { payload, contentType } = await multipart([
      { name: 'purpose', value: 'listing' },
      { name: 'logo', data: png, filename: 'logo.png', type: 'image/png' },
    ]);
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { ...alice.headers, 'content-type': contentType },
      payload,
    });
    expect(up.statusCode).toBe(200);
    const { servedUrl } = up.json() as { servedUrl: string };
    const { issuer, currency } = await issueToken(client, { ticker: 'LGO', amounts: ['3'] });
    const res = await post(ADD, alice, form(issuer.address, { logoUrl: servedUrl }));
    expect(res.statusCode).toBe(200);
    expect(res.json().token.logoUrl).toBe(servedUrl);
    const [row] = await t.database.db
      .select()
      .from(tokens)
      .where(and(eq(tokens.issuerAddress, issuer.address), eq(tokens.currency, currency)));
    expect(row!.logoUrl).toBe(servedUrl);
  });

  it('needs the CSRF token of the session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: ADD,
      headers: { cookie: alice.cookie },
      payload: form(Wallet.generate().address),
    });
    expect(res.statusCode).toBe(403);
  });
});
