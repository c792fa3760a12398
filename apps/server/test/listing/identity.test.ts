import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type AccountSet, type Client } from 'xrpl';
import {
  AIRDROP_MESSAGES,
  IDENTITY_MESSAGES,
  identityBadge,
  type Airdrop,
  RLUSD_CURRENCY_HEX,
  type ClaimChallengeView,
  type TokenSuggestion,
  type TokenView,
} from '@ledgerpad/shared';
import { adminAudit } from '../../src/modules/admin/schema';
import { airdrops } from '../../src/modules/airdrops/schema';
import { listingChallenges, tokenIdentityEvents } from '../../src/modules/listing/schema';
import { tokens } from '../../src/modules/tokens/schema';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import { submitAndWait } from '../helpers/submit-and-wait';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/test-app';
import { issueToken } from './issuer-fixture';

// Token identity (issue 24) through HTTP against the embedded ledger (closing every 100 ms, the
// platform bootstrapped so the network has its RLUSD issuer): B lists A's token unverified; A
// proves control in each of the three ways and A's metadata replaces B's, with a history row;
// the refusals; lookalikes; admin edit/verify/hide with audit rows; search ranks verified first.
// Issuers are made with xrpl.js in the test; the xrp-ledger.toml is served by a local HTTP server.

const ADD = '/api/admin/tokens/add';

let t: TestApp;
let client: Client;
let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;
let owner: SignedIn;
let toml: Server;
let tomlPort: number;
/** What the local site answers for /.well-known/xrp-ledger.toml. */
let tomlBody = '';

beforeAll(async () => {
  toml = createServer((req, res) => {
    if (req.url !== '/.well-known/xrp-ledger.toml') return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/toml' }).end(tomlBody);
  });
  await new Promise<void>((resolve) => toml.listen(0, '127.0.0.1', resolve));
  tomlPort = (toml.address() as AddressInfo).port;
  t = await createTestApp({
    closeIntervalMs: 100,
    env: { PLATFORM_BOOTSTRAP: 'on', TOML_FETCH_ALLOW_LOOPBACK: 'true' },
  });
  await t.app.ready();
  await t.app.platform.accounts.bootstrapped();
  client = t.ledger!.client;
  [alice, bob, carol, owner] = await Promise.all([
    t.signIn('alice'),
    t.signIn('bob'),
    t.signIn('carol'),
    t.signInOwner(),
  ]);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await new Promise((r) => toml?.close(r));
});

const post = (url: string, who: SignedIn, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload });
const get = (url: string, who?: SignedIn) => t.app.inject({ url, headers: who ? who.headers : {} });

const listing = (issuer: string, extra: Record<string, unknown> = {}) => ({
  issuer_address: issuer,
  name: 'Phish Coin',
  description: 'Totally the real one.',
  twitterLink: 'https://x.com/phisher',
  websiteLink: 'https://phish.example',
  ...extra,
});

const metadata = (name: string) => ({
  name,
  description: 'Written by the issuer.',
  websiteLink: 'https://issuer.example',
  twitterLink: '',
  telegramLink: '',
});

async function listAs(
  who: SignedIn,
  issuer: string,
  extra: Record<string, unknown> = {},
): Promise<TokenView> {
  const res = await post(ADD, who, listing(issuer, extra));
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { token: TokenView }).token;
}

const importWallet = async (who: SignedIn, seed: string) => {
  const res = await post('/api/wallets/import', who, { seed });
  expect(res.statusCode, res.body).toBe(200);
};

const events = (tokenId: number) =>
  t.database.db
    .select()
    .from(tokenIdentityEvents)
    .where(eq(tokenIdentityEvents.tokenId, tokenId))
    .orderBy(asc(tokenIdentityEvents.id));

const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex').toUpperCase();

describe('B lists A’s token, A proves control', () => {
  it('with one of A’s own wallets: unverified with the lister’s links, then A’s metadata replaces B’s', async () => {
    const { issuer } = await issueToken(client, { ticker: 'OWN', amounts: ['100'] });
    const listed = await listAs(bob, issuer.address);
    expect(listed).toMatchObject({
      name: 'Phish Coin',
      verified: false,
      verified_by: null,
      metadata_by: 'lister',
      lookalike_of: null,
      links: { Website: 'https://phish.example', Twitter: 'https://x.com/phisher' },
    });
    const onList = ((await get('/api/tokens')).json() as TokenView[]).find((x) => x.id === listed.id);
    expect(onList).toMatchObject({ verified: false, metadata_by: 'lister' });

    // The real issuer is not locked out by the 409: it claims the listing.
    const again = await post(ADD, alice, listing(issuer.address, { name: 'Real Own' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Token Already Listed');

    // Bob cannot claim it (not his wallet), and cannot rewrite it.
    const bobClaim = await post('/api/listing/claims/verify', bob, {
      token_id: listed.id,
      method: 'wallet',
      ...metadata('Bob Again'),
    });
    expect(bobClaim.statusCode).toBe(400);
    expect(bobClaim.json().message).toBe(IDENTITY_MESSAGES.notOwnWallet);
    const bobEdit = await post(`/api/listing/tokens/${listed.id}/metadata`, bob, metadata('Bob Edit'));
    expect(bobEdit.statusCode).toBe(403);
    expect(bobEdit.json().message).toBe(IDENTITY_MESSAGES.notController);

    await importWallet(alice, issuer.seed!);
    const control = (await get(`/api/listing/control?token_id=${listed.id}`, alice)).json();
    expect(control).toEqual({
      token_id: listed.id,
      controller: false,
      admin: false,
      own_wallet: true,
      lost_control: null,
    });

    const claim = await post('/api/listing/claims/verify', alice, {
      token_id: listed.id,
      method: 'wallet',
      ...metadata('Real Own'),
    });
    expect(claim.statusCode, claim.body).toBe(200);
    expect(claim.json().token).toMatchObject({
      id: listed.id,
      name: 'Real Own',
      description: 'Written by the issuer.',
      verified: true,
      verified_by: 'wallet',
      metadata_by: 'issuer',
      links: { Website: 'https://issuer.example', Twitter: '', Telegram: '' },
    });
    expect(identityBadge(claim.json().token)).toBe('Controls the issuer');

    // The controller rewrites it at any time.
    const edit = await post(`/api/listing/tokens/${listed.id}/metadata`, alice, metadata('Real Own Two'));
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().token).toMatchObject({ name: 'Real Own Two', verified: true });

    const history = await events(listed.id);
    expect(history.map((e) => [e.action, e.userId, e.method])).toEqual([
      ['list', bob.user.id, null],
      ['claim', alice.user.id, 'wallet'],
      ['metadata', alice.user.id, null],
    ]);
    expect(history[1]!.before).toMatchObject({ name: 'Phish Coin', websiteLink: 'https://phish.example' });
    expect(history[1]!.after).toMatchObject({ name: 'Real Own', websiteLink: 'https://issuer.example' });
  });

  it('with a claim code the issuer sends on the ledger (an AccountSet with a memo)', async () => {
    const { issuer } = await issueToken(client, { ticker: 'CLM', amounts: ['5'] });
    const listed = await listAs(bob, issuer.address);

    // No code asked yet.
    const early = await post('/api/listing/claims/verify', alice, {
      token_id: listed.id,
      method: 'challenge',
      ...metadata('Claimed'),
    });
    expect(early.json().message).toBe(IDENTITY_MESSAGES.challengeMissing);

    const carolCode = (
      await post('/api/listing/claims', carol, { token_id: listed.id })
    ).json() as ClaimChallengeView;
    const res = await post('/api/listing/claims', alice, { token_id: listed.id });
    expect(res.statusCode, res.body).toBe(200);
    const code = res.json() as ClaimChallengeView;
    expect(code.code).toMatch(/^ledgerpad-claim-[0-9a-f]{32}$/);
    expect(code.code).not.toBe(carolCode.code);
    expect(code).toMatchObject({ token_id: listed.id, issuer_address: issuer.address, own_wallet: false });
    // Exactly what a wallet must sign: a zero-effect AccountSet whose memo says, in words the issuer
    // reads before signing, what it grants and to whom (issue 35), with the code inside.
    expect(code.claim_text).toBe(
      `Ledgerpad: make alice (user #${alice.user.id}) controller of CLM listing #${listed.id}. Code ${code.code}`,
    );
    expect(code.transaction).toEqual({
      TransactionType: 'AccountSet',
      Account: issuer.address,
      Memos: [
        {
          Memo: {
            MemoType: hex('ledgerpad/claim'),
            MemoData: hex(code.claim_text),
            MemoFormat: hex('text/plain'),
          },
        },
      ],
    });
    expect(new Date(code.expires_at).getTime() - Date.now()).toBeGreaterThan(59 * 60_000);

    const before = await post('/api/listing/claims/verify', alice, {
      token_id: listed.id,
      method: 'challenge',
      ...metadata('Claimed'),
    });
    expect(before.statusCode).toBe(400);
    expect(before.json().message).toBe(IDENTITY_MESSAGES.challengeNotFound);

    // The issuer sends it, as Xaman or any wallet would (xrpl.js here).
    const sent = await submitAndWait(client, code.transaction as AccountSet, issuer);
    expect((sent.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');

    // Carol's code was not the one sent: the code is bound to the user who asked for it.
    const byCarol = await post('/api/listing/claims/verify', carol, {
      token_id: listed.id,
      method: 'challenge',
      ...metadata('Carol'),
    });
    expect(byCarol.json().message).toBe(IDENTITY_MESSAGES.challengeNotFound);

    const claim = await post('/api/listing/claims/verify', alice, {
      token_id: listed.id,
      method: 'challenge',
      ...metadata('Claimed'),
    });
    expect(claim.statusCode, claim.body).toBe(200);
    expect(claim.json().token).toMatchObject({ name: 'Claimed', verified: true, verified_by: 'challenge' });
    const [row] = await t.database.db
      .select()
      .from(listingChallenges)
      .where(and(eq(listingChallenges.tokenId, listed.id), eq(listingChallenges.userId, alice.user.id)));
    expect(row!.txHash).toBe(sent.hash);
    expect(row!.usedAt).not.toBeNull();
    const history = await events(listed.id);
    expect(history.at(-1)!.after).toMatchObject({ evidence: sent.hash, controllerUserId: alice.user.id });
  });

  it('refuses an expired claim code, and gives no code for an issuer that can never sign', async () => {
    const { issuer } = await issueToken(client, { ticker: 'EXP', amounts: ['5'] });
    const listed = await listAs(bob, issuer.address);
    const code = (
      await post('/api/listing/claims', alice, { token_id: listed.id })
    ).json() as ClaimChallengeView;
    await submitAndWait(client, code.transaction as AccountSet, issuer);
    await t.database.db
      .update(listingChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(listingChallenges.code, code.code));
    const late = await post('/api/listing/claims/verify', alice, {
      token_id: listed.id,
      method: 'challenge',
      ...metadata('Late'),
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(IDENTITY_MESSAGES.challengeExpired);

    const hole = await issueToken(client, { ticker: 'HLE', amounts: ['5'], blackhole: true });
    const holeListed = await listAs(bob, hole.issuer.address);
    const none = (
      await post('/api/listing/claims', alice, { token_id: holeListed.id })
    ).json() as ClaimChallengeView;
    expect(none.code).toBe('');
    expect(none.transaction.Memos).toEqual([]);
  });

  it('with the issuer’s xrp-ledger.toml, served by a local site', async () => {
    const { issuer } = await issueToken(client, { ticker: 'TML', amounts: ['7'] });
    const listed = await listAs(bob, issuer.address);
    const claim = () =>
      post('/api/listing/claims/verify', alice, {
        token_id: listed.id,
        method: 'toml',
        ...metadata('Toml Token'),
      });

    const noDomain = await claim();
    expect(noDomain.json().message).toBe(IDENTITY_MESSAGES.noDomain);

    const domain = `127.0.0.1:${tomlPort}`;
    await submitAndWait(
      client,
      { TransactionType: 'AccountSet', Account: issuer.address, Domain: hex(domain) },
      issuer,
    );
    const url = `http://${domain}/.well-known/xrp-ledger.toml`;
    const shown = (
      await post('/api/listing/claims', alice, { token_id: listed.id })
    ).json() as ClaimChallengeView;
    expect(shown).toMatchObject({ domain, toml_url: url });

    tomlBody = `[[ISSUERS]]\naddress = "${Wallet.generate().address}"\n`;
    expect((await claim()).json().message).toBe(IDENTITY_MESSAGES.tomlNoIssuer(url));
    tomlBody = `[[ISSUERS]]\naddress = "${issuer.address}"\n\n[[CURRENCIES]]\ncode = "USD"\nissuer = "${issuer.address}"\n`;
    expect((await claim()).json().message).toBe(IDENTITY_MESSAGES.tomlNoCurrency(url, 'TML'));
    tomlBody = 'this is = = not toml';
    expect((await claim()).json().message).toBe(IDENTITY_MESSAGES.tomlParse(url));

    // The file lists the issuer and the token but names nobody: the domain vouches for the listing,
    // whose metadata becomes the TOML's own (the caller's form is not the issuer's word), and nobody
    // becomes controller (issue 35).
    tomlBody = `[[ISSUERS]]\naddress = "${issuer.address}"\nname = "Toml Inc"\n\n[[CURRENCIES]]\ncode = "TML"\nissuer = "${issuer.address}"\ndisplay_decimals = 2\n`;
    const vouched = await claim();
    expect(vouched.statusCode, vouched.body).toBe(200);
    expect(vouched.json().note).toBe(IDENTITY_MESSAGES.tomlVerifiedOnly(domain));
    expect(vouched.json().token).toMatchObject({
      name: 'Toml Inc',
      verified: true,
      verified_by: 'toml',
      verified_domain: domain,
      metadata_by: 'issuer',
      links: { Website: `https://${domain}/`, Twitter: '', Telegram: '' },
    });
    expect(identityBadge(vouched.json().token)).toBe(`${domain} vouches`);
    expect((await get(`/api/listing/control?token_id=${listed.id}`, alice)).json()).toMatchObject({
      controller: false,
    });
    expect((await events(listed.id)).at(-1)).toMatchObject({ action: 'toml', after: { evidence: url } });

    // With the claim line of Alice's code in the token's entry, the domain names her: controller.
    tomlBody = `[[ISSUERS]]\naddress = "${issuer.address}"\nname = "Toml Inc"\n\n[[CURRENCIES]]\ncode = "TML"\nissuer = "${issuer.address}"\n${shown.toml_line}\n`;
    expect(shown.toml_line).toBe(`ledgerpad_claim = "${shown.claim_text}"`);
    const ok = await claim();
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().note).toBeUndefined();
    expect(ok.json().token).toMatchObject({ name: 'Toml Token', verified: true, verified_by: 'toml' });
    expect((await get(`/api/listing/control?token_id=${listed.id}`, alice)).json()).toMatchObject({
      controller: true,
    });
    expect((await events(listed.id)).at(-1)!.after).toMatchObject({
      evidence: url,
      controllerUserId: alice.user.id,
    });
  });
});

describe('no impersonation', () => {
  it('refuses XRP, an LP code, RLUSD’s code from another issuer and (for users) the RLUSD issuer', async () => {
    const { issuer, currency } = await issueToken(client, { ticker: 'POO', amounts: ['1000'] });
    const xrp = await post(ADD, bob, listing(issuer.address, { currency: 'XRP' }));
    expect([xrp.statusCode, xrp.json().message]).toEqual([400, IDENTITY_MESSAGES.xrp]);

    // The issuer opens a pool; its AMM account issues the LP token (03…).
    const created = await submitAndWait(
      client,
      {
        TransactionType: 'AMMCreate',
        Account: issuer.address,
        Amount: '10000000',
        Amount2: { currency, issuer: issuer.address, value: '100' },
        TradingFee: 300,
      },
      issuer,
    );
    expect((created.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
    const amm = (
      await client.request({
        command: 'amm_info',
        asset: { currency: 'XRP' },
        asset2: { currency, issuer: issuer.address },
      })
    ).result.amm;
    expect(amm.lp_token.currency.startsWith('03')).toBe(true);
    for (const body of [listing(amm.account, { currency: amm.lp_token.currency }), listing(amm.account)]) {
      const lp = await post(ADD, bob, body);
      expect([lp.statusCode, lp.json().message]).toEqual([400, IDENTITY_MESSAGES.lpToken]);
    }

    const fake = await issueToken(client, { ticker: 'RLUSD', amounts: ['50'] });
    expect(fake.currency).toBe(RLUSD_CURRENCY_HEX);
    for (const body of [listing(fake.issuer.address, { ticker: 'RLUSD' }), listing(fake.issuer.address)]) {
      const r = await post(ADD, bob, body);
      expect([r.statusCode, r.json().message]).toEqual([400, IDENTITY_MESSAGES.rlusdCode]);
    }

    const rlusd = (await platformWallet(t.database.db, PLATFORM_ROLES.rlusdIssuer))!.address;
    const byUser = await post(ADD, bob, listing(rlusd, { name: 'Ripple USD' }));
    expect([byUser.statusCode, byUser.json().message]).toEqual([400, IDENTITY_MESSAGES.rlusdIssuer]);
    const byPlatform = await post(
      ADD,
      owner,
      listing(rlusd, { name: 'Ripple USD', websiteLink: 'https://ripple.com' }),
    );
    expect(byPlatform.statusCode, byPlatform.body).toBe(200);
    expect(byPlatform.json().token).toMatchObject({
      ticker: 'RLUSD',
      verified: true,
      verified_by: 'platform',
      lookalike_of: null,
    });
    const rows = await t.database.db
      .select()
      .from(tokens)
      .where(eq(tokens.issuerAddress, fake.issuer.address));
    expect(rows).toHaveLength(0);
  });

  it('flags a row wearing RLUSD’s code from another issuer, even one verified before the rule', async () => {
    const fake = Wallet.generate().address;
    // A row from before the rule (written straight to the table, as migration 0015 left deploys).
    const [row] = await t.database.db
      .insert(tokens)
      .values({
        name: 'Old Fake',
        ticker: 'RLUSD',
        currency: RLUSD_CURRENCY_HEX,
        issuerAddress: fake,
        supply: '1',
        source: 'deploy',
        verified: true,
        verifiedBy: 'deploy',
      })
      .returning();
    expect((await get(`/api/tokens/issuer/${fake}`)).json()).toMatchObject({ verified: true });
    // Any identity change re-marks every row (an admin action here; also at start and on listings).
    await post(`/api/admin/tokens/${row!.id}/hide`, owner, { hidden: false });
    const after = (await get(`/api/tokens/issuer/${fake}`)).json() as TokenView;
    expect(after).toMatchObject({ verified: false, lookalike_of: 'RLUSD' });
    // And it cannot be verified by an admin.
    const verify = await post(`/api/admin/tokens/${row!.id}/verify`, owner, { verified: true });
    expect([verify.statusCode, verify.json().message]).toEqual([400, IDENTITY_MESSAGES.rlusdCode]);
  });

  it('marks a lookalike of a verified token by ledger facts, keeping its own proof; refuses a name reading as another token', async () => {
    const real = await issueToken(client, { ticker: 'BOB', amounts: ['10'] });
    await importWallet(alice, real.issuer.seed!);
    const verified = await listAs(alice, real.issuer.address, { name: 'Bob Token' });
    expect(verified).toMatchObject({ verified: true, verified_by: 'wallet', metadata_by: 'issuer' });

    // B0B (a zero for the O), from its own issuer, listed by that issuer's owner: its proof stands
    // (it does control that issuer), but it was issued later with no more holders, so it gives way.
    const zero = await issueToken(client, { ticker: 'B0B', amounts: ['10'] });
    await importWallet(bob, zero.issuer.seed!);
    const fake = await listAs(bob, zero.issuer.address, { name: 'Other Thing' });
    expect(fake).toMatchObject({
      ticker: 'B0B',
      verified: true,
      verified_by: 'wallet',
      lookalike_of: 'BOB',
      same_as: { match: 'ticker', ticker: 'BOB', issuer_address: real.issuer.address, currency: 'BOB' },
    });

    // Lower case gives way too.
    const lower = await issueToken(client, { ticker: 'bob', amounts: ['1'] });
    expect(await listAs(carol, lower.issuer.address, { name: 'Plain' })).toMatchObject({
      lookalike_of: 'BOB',
    });
    // A name spelling another token's ticker (its own ticker differs), or RLUSD's name: refused.
    const named = await issueToken(client, { ticker: 'ZZQ', amounts: ['1'] });
    const asBob = await post(ADD, carol, listing(named.issuer.address, { name: 'B0B' }));
    expect([asBob.statusCode, asBob.json().message]).toEqual([400, IDENTITY_MESSAGES.verifiedName('BOB')]);
    const ripple = await issueToken(client, { ticker: 'RUSD', amounts: ['1'] });
    const asRlusd = await post(ADD, carol, listing(ripple.issuer.address, { name: 'Ripple USD' }));
    expect([asRlusd.statusCode, asRlusd.json().message]).toEqual([
      400,
      IDENTITY_MESSAGES.reservedName('RLUSD'),
    ]);
  });

  it('ranks verified tokens first in search and the swap autocomplete', async () => {
    const real = await issueToken(client, { ticker: 'RNK', amounts: ['10'] });
    await importWallet(alice, real.issuer.seed!);
    await listAs(alice, real.issuer.address, { name: 'Rank Real' });
    // Listed later (the list is newest first), so without ranking it would come first.
    const copy = await issueToken(client, { ticker: 'RNK', amounts: ['10'] });
    await listAs(bob, copy.issuer.address, { name: 'Rank Copy' });
    // By name: a 3-letter query could also match a random issuer address of another test.
    const found = (await get('/api/swapsearch/search-tokens/rank%20')).json() as TokenSuggestion[];
    expect(found).toEqual([
      {
        ticker: 'RNK',
        name: 'Rank Real',
        issuer_address: real.issuer.address,
        currency: 'RNK',
        verified: true,
        verified_by: 'wallet',
        verified_domain: null,
        lookalike_of: null,
        same_as: null,
      },
      {
        ticker: 'RNK',
        name: 'Rank Copy',
        issuer_address: copy.issuer.address,
        currency: 'RNK',
        verified: false,
        verified_by: null,
        verified_domain: null,
        lookalike_of: 'RNK',
        same_as: {
          match: 'ticker',
          ticker: 'RNK',
          name: 'Rank Real',
          issuer_address: real.issuer.address,
          currency: 'RNK',
        },
      },
    ]);
    const list = (await get('/api/tokens')).json() as TokenView[];
    expect(list.findIndex((x) => x.name === 'Rank Copy')).toBeLessThan(
      list.findIndex((x) => x.name === 'Rank Real'),
    );
  });
});

describe('facts from the ledger', () => {
  it('ignores a user’s created date and honours an admin’s', async () => {
    const user = await issueToken(client, { ticker: 'CRT', amounts: ['1'] });
    const byUser = await listAs(bob, user.issuer.address, { created_at: '2020-01-02' });
    expect(byUser.created_at).toBe(user.firstLineAt!.toISOString());
    const admin = await issueToken(client, { ticker: 'CRA', amounts: ['1'] });
    const byAdmin = await listAs(owner, admin.issuer.address, { created_at: '2020-01-02' });
    expect(byAdmin.created_at).toBe('2020-01-02T00:00:00.000Z');
  });
});

describe('admin Tokens tab', () => {
  it('edits, verifies and hides any listing, each with an audit row; others get 403', async () => {
    const { issuer } = await issueToken(client, { ticker: 'ADT', amounts: ['3'] });
    const listed = await listAs(bob, issuer.address);
    for (const path of ['verify', 'hide', 'update']) {
      const r = await post(`/api/admin/tokens/${listed.id}/${path}`, bob, { verified: true, hidden: true });
      expect(r.statusCode).toBe(403);
    }
    expect((await get('/api/admin/tokens', bob)).statusCode).toBe(403);

    const verify = await post(`/api/admin/tokens/${listed.id}/verify`, owner, { verified: true });
    expect(verify.json().token).toMatchObject({ verified: true, verified_by: 'admin' });
    const update = await post(`/api/admin/tokens/${listed.id}/update`, owner, {
      ...metadata('Audited Token'),
      created_at: '2023-06-01',
    });
    expect(update.statusCode, update.body).toBe(200);
    expect(update.json().token).toMatchObject({
      name: 'Audited Token',
      metadata_by: 'admin',
      created_at: '2023-06-01T00:00:00.000Z',
      verified: true,
    });
    const hide = await post(`/api/admin/tokens/${listed.id}/hide`, owner, { hidden: true });
    expect(hide.json().token).toMatchObject({ is_active: false });
    const list = (await get('/api/tokens')).json() as TokenView[];
    expect(list.some((x) => x.id === listed.id)).toBe(false);
    const all = (await get('/api/admin/tokens', owner)).json() as TokenView[];
    expect(all.find((x) => x.id === listed.id)).toMatchObject({ is_active: false, name: 'Audited Token' });

    const audit = await t.database.db
      .select()
      .from(adminAudit)
      .where(eq(adminAudit.target, `ADT ${issuer.address}`))
      .orderBy(asc(adminAudit.id));
    expect(audit.map((a) => [a.action, a.adminUserId])).toEqual([
      ['token.verify', owner.user.id],
      ['token.update', owner.user.id],
      ['token.hide', owner.user.id],
    ]);
    expect(audit[0]).toMatchObject({
      before: { verified: false },
      after: { verified: true, verifiedBy: 'admin' },
    });
    expect(audit[1]!.before).toMatchObject({ name: 'Phish Coin' });
    expect(audit[2]).toMatchObject({ before: { hidden: false }, after: { hidden: true } });
  });
});

describe('images only from us', () => {
  it('never shows a stored external logo', async () => {
    const { issuer } = await issueToken(client, { ticker: 'IMG', amounts: ['1'] });
    const listed = await listAs(bob, issuer.address);
    await t.database.db
      .update(tokens)
      .set({ logoUrl: 'https://tracker.example/pixel.png' })
      .where(eq(tokens.id, listed.id));
    const view = (await get(`/api/tokens/issuer/${issuer.address}`)).json() as TokenView;
    expect([view.logoUrl, view.local_image_path]).toEqual([null, null]);
  });

  it('takes an airdrop logo only from our uploads, and never shows a stored external one', async () => {
    const external = await post('/api/airdrops', alice, {
      sourceWalletId: 1,
      tokenCode: 'AIR',
      issuerAddress: Wallet.generate().address,
      projectName: 'Pixel Drop',
      logoUrl: 'https://tracker.example/pixel.png',
      perUserType: 'fixed',
      totalTokenAmount: '10',
      fixedAmount: '1',
      deadline: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect([external.statusCode, external.json().message]).toEqual([400, AIRDROP_MESSAGES.logo]);

    // A row from before the rule, holding a free-text URL.
    await t.database.db.insert(airdrops).values({
      creatorUserId: alice.user.id,
      sourceWalletId: 1,
      sourceAddress: Wallet.generate().address,
      projectName: 'Legacy Drop',
      logoUrl: 'https://tracker.example/pixel.png',
      issuerAddress: Wallet.generate().address,
      currency: 'AIR',
      perUserType: 'fixed',
      fixedAmount: '1',
      maxClaims: 10,
      totalAmount: '10',
      remaining: '10',
      expiry: new Date(Date.now() + 3600_000),
      trustlineMode: 'auto',
      status: 'active',
    });
    const board = (await get('/api/airdrops')).json() as Airdrop[];
    expect(board.find((a) => a.project_name === 'Legacy Drop')?.logo_url).toBe('');
  });

  it('allows images only from our origin and data: in the CSP', async () => {
    const res = await get('/api/tokens');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("img-src 'self' data:;");
  });
});
