import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSet, Client } from 'xrpl';
import {
  CLAIM_CODES_PER_HOUR,
  DEPLOY_MESSAGES,
  IDENTITY_MESSAGES,
  LISTING_MESSAGES,
  claimMemo,
  type ClaimChallengeView,
} from '@ledgerpad/shared';
import { listingChallenges } from '../../src/modules/listing/schema';
import { submitAndWait } from '../helpers/submit-and-wait';
import { testLogo } from '../helpers/test-logo';
import type { SignedIn, TestApp } from '../helpers/test-app';
import { identityApp, identityCalls, metadata as identityMetadata } from './identity-world';
import { issueToken } from './issuer-fixture';

// Issue 35, proofs bind the claimer, tried with outside xrpl.js wallets on the embedded ledger and a
// loopback xrp-ledger.toml (test mode):
// - a stranger's TOML claim: a TOML that does not name the caller verifies the listing and makes
//   nobody controller; the real controller keeps the listing and can still update it;
// - a phishing-shaped memo: the code alone, or a claim text naming someone or something else,
//   proves nothing; the memo names what it grants;
// - reloading the claim page keeps the code already sent; new codes are limited per listing and user;
// - a listing may not show another token's logo; links with user:pw@ or a label's wrong site refused;
// - a deploy may not name a logo that does not exist, or another token's.

const ADD = '/api/admin/tokens/add';

let t: TestApp;
let client: Client;
let alice: SignedIn;
let bob: SignedIn;
let mallory: SignedIn;
let toml: Server;
let tomlPort: number;
let tomlBody = '';
let calls: ReturnType<typeof identityCalls>;

beforeAll(async () => {
  toml = createServer((req, res) => {
    if (req.url !== '/.well-known/xrp-ledger.toml') return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/toml' }).end(tomlBody);
  });
  await new Promise<void>((resolve) => toml.listen(0, '127.0.0.1', resolve));
  tomlPort = (toml.address() as AddressInfo).port;
  t = await identityApp({ TOML_FETCH_ALLOW_LOOPBACK: 'true' });
  client = t.ledger!.client;
  calls = identityCalls(t);
  [alice, bob, mallory] = await Promise.all([
    t.signIn('alice_real'),
    t.signIn('bob_other'),
    t.signIn('mallory_phish'),
  ]);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await new Promise((r) => toml?.close(r));
});

const post = (url: string, who: SignedIn, payload: object) => calls.post(url, who, payload);
const get = (url: string, who?: SignedIn) => calls.get(url, who);
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex').toUpperCase();
const listAs = (who: SignedIn, issuer: string, fields: Record<string, unknown> = {}) =>
  calls.listAs(who, issuer, fields);
const importWallet = (who: SignedIn, seed: string) => calls.importWallet(who, seed);
const metadata = (name: string, extra: object = {}) =>
  identityMetadata(name, { description: 'Mine.', ...extra });

const codeFor = async (who: SignedIn, tokenId: number): Promise<ClaimChallengeView> => {
  const res = await post('/api/listing/claims', who, { token_id: tokenId });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ClaimChallengeView;
};

describe('a stranger’s TOML claim', () => {
  it('verifies the listing from the TOML and makes nobody controller; the real controller keeps it', async () => {
    const { issuer, currency } = await issueToken(client, { ticker: 'TOM', amounts: ['9'] });
    // Alice controls the listing (the issuer is her wallet) with her own links.
    await importWallet(alice, issuer.seed!);
    const listed = await listAs(alice, issuer.address, {
      name: 'Tom Real',
      websiteLink: 'https://tom.example',
    });
    expect(listed).toMatchObject({ verified: true, verified_by: 'wallet', metadata_by: 'issuer' });

    // The issuer's domain publishes a valid xrp-ledger.toml listing it, naming nobody.
    const domain = `127.0.0.1:${tomlPort}`;
    await submitAndWait(
      client,
      { TransactionType: 'AccountSet', Account: issuer.address, Domain: hex(domain) },
      issuer,
    );
    tomlBody = `[[ISSUERS]]\naddress = "${issuer.address}"\n\n[[CURRENCIES]]\ncode = "TOM"\nissuer = "${issuer.address}"\nname = "Tom"\n`;

    // Mallory, any signed-in user, 'claims' it through the TOML with her phishing links.
    const stranger = await post('/api/listing/claims/verify', mallory, {
      token_id: listed.id,
      method: 'toml',
      ...metadata('Tom Official', { websiteLink: 'https://tom-airdrop.example' }),
    });
    expect(stranger.statusCode, stranger.body).toBe(200);
    expect(stranger.json().note).toBe(IDENTITY_MESSAGES.tomlVerifiedOnly(domain));
    // Nothing of hers: the controller, the metadata and its author stay Alice's; the domain's vouch is added.
    expect(stranger.json().token).toMatchObject({
      name: 'Tom Real',
      metadata_by: 'issuer',
      verified: true,
      verified_by: 'wallet',
      verified_domain: domain,
      links: { Website: 'https://tom.example' },
    });
    expect((await get(`/api/listing/control?token_id=${listed.id}`, mallory)).json()).toMatchObject({
      controller: false,
    });
    const edit = await post(`/api/listing/tokens/${listed.id}/metadata`, mallory, metadata('Tom Official'));
    expect(edit.statusCode).toBe(403);
    // The real controller's update still works.
    const update = await post(`/api/listing/tokens/${listed.id}/metadata`, alice, metadata('Tom Real Two'));
    expect(update.statusCode, update.body).toBe(200);

    // Only the domain itself can name a controller: with Mallory's claim text in the token's entry
    // (the domain's owner put it there), the proof binds her, and it is a public change of controller.
    const mine = await codeFor(mallory, listed.id);
    tomlBody = `[[ISSUERS]]\naddress = "${issuer.address}"\n\n[[CURRENCIES]]\ncode = "TOM"\nissuer = "${issuer.address}"\n${mine.toml_line}\n`;
    // Alice's claim text is not Mallory's: hers does not bind Mallory's either way.
    const byAlice = await post('/api/listing/claims/verify', alice, {
      token_id: listed.id,
      method: 'toml',
      ...metadata('Tom Real Three'),
    });
    expect(byAlice.json().token).toMatchObject({ name: 'Tom Real Two' });
    expect((await get(`/api/listing/control?token_id=${listed.id}`, alice)).json()).toMatchObject({
      controller: true,
    });
    const named = await post('/api/listing/claims/verify', mallory, {
      token_id: listed.id,
      method: 'toml',
      ...metadata('Tom By Domain'),
    });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json().token).toMatchObject({ name: 'Tom By Domain', verified_by: 'toml' });
    expect((await get(`/api/listing/control?token_id=${listed.id}`, alice)).json()).toMatchObject({
      controller: false,
      lost_control: { method: 'toml', evidence: `http://${domain}/.well-known/xrp-ledger.toml` },
    });
    expect(currency).toBe('TOM');
  });
});

describe('a phishing-shaped memo', () => {
  it('proves nothing unless it carries the exact claim text, which names who becomes controller of what', async () => {
    const { issuer } = await issueToken(client, { ticker: 'PHI', amounts: ['3'] });
    const listed = await listAs(bob, issuer.address);
    const other = await issueToken(client, { ticker: 'PHO', amounts: ['3'] });
    const otherListed = await listAs(bob, other.issuer.address);

    const code = await codeFor(mallory, listed.id);
    expect(code.claim_text).toBe(
      `Ledgerpad: make mallory_phish (user #${mallory.user.id}) controller of PHI listing #${listed.id}. Code ${code.code}`,
    );
    const verify = () =>
      post('/api/listing/claims/verify', mallory, {
        token_id: listed.id,
        method: 'challenge',
        ...metadata('Phished'),
      });
    const send = async (memoText: string) => {
      const sent = await submitAndWait(
        client,
        {
          TransactionType: 'AccountSet',
          Account: issuer.address,
          Memos: [{ Memo: claimMemo(memoText) }],
        } as AccountSet,
        issuer,
      );
      expect((sent.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
    };

    // 'Sign this harmless AccountSet': the old shape, the code alone, is no claim any more.
    await send(code.code);
    expect((await verify()).json().message).toBe(IDENTITY_MESSAGES.challengeNotFound);
    // The text with the code but another user's name, or another listing: not this claim either.
    await send(code.claim_text.replace('mallory_phish', 'bob_other'));
    await send(code.claim_text.replace(`listing #${listed.id}`, `listing #${otherListed.id}`));
    expect((await verify()).json().message).toBe(IDENTITY_MESSAGES.challengeNotFound);
    expect((await get(`/api/listing/control?token_id=${listed.id}`, mallory)).json()).toMatchObject({
      controller: false,
    });

    // Only the text that says what it grants, which the issuer reads in its wallet before signing.
    await send(code.claim_text);
    const ok = await verify();
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().token).toMatchObject({ verified_by: 'challenge' });
  });
});

describe('claim codes', () => {
  it('reloading the claim page keeps the code already sent; new codes are limited per listing and user', async () => {
    const { issuer } = await issueToken(client, { ticker: 'RLD', amounts: ['3'] });
    const listed = await listAs(bob, issuer.address);
    const first = await codeFor(alice, listed.id);
    // A reload asks again: the same live code, not a new one that would kill the first.
    const reload = await codeFor(alice, listed.id);
    expect(reload.code).toBe(first.code);

    // The issuer sends the first; meanwhile a newer code was issued (the first close to expiry).
    await submitAndWait(client, first.transaction as AccountSet, issuer);
    await t.database.db
      .update(listingChallenges)
      .set({ expiresAt: new Date(Date.now() + 5 * 60_000) })
      .where(eq(listingChallenges.code, first.code));
    const newer = await codeFor(alice, listed.id);
    expect(newer.code).not.toBe(first.code);
    // The older code, still valid, still proves it.
    const claim = await post('/api/listing/claims/verify', alice, {
      token_id: listed.id,
      method: 'challenge',
      ...metadata('Kept Code'),
    });
    expect(claim.statusCode, claim.body).toBe(200);

    // At most CLAIM_CODES_PER_HOUR new codes for one listing and user; then 429 with a Retry-After.
    const other = await issueToken(client, { ticker: 'RLE', amounts: ['3'] });
    const otherListed = await listAs(bob, other.issuer.address);
    const issued: string[] = [];
    for (let i = 0; i < CLAIM_CODES_PER_HOUR; i++) {
      issued.push((await codeFor(mallory, otherListed.id)).code);
      // Each one about to expire, so the next call issues a new one.
      await t.database.db
        .update(listingChallenges)
        .set({ expiresAt: new Date(Date.now() + 60_000) })
        .where(eq(listingChallenges.code, issued.at(-1)!));
    }
    expect(new Set(issued).size).toBe(CLAIM_CODES_PER_HOUR);
    const limited = await post('/api/listing/claims', mallory, { token_id: otherListed.id });
    expect([limited.statusCode, limited.json().message]).toEqual([429, IDENTITY_MESSAGES.codeLimit]);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const stored = await t.database.db
      .select()
      .from(listingChallenges)
      .where(
        and(eq(listingChallenges.tokenId, otherListed.id), eq(listingChallenges.userId, mallory.user.id)),
      );
    expect(stored).toHaveLength(CLAIM_CODES_PER_HOUR);
    // Another user, or another listing, is not held back by Mallory's codes.
    expect((await post('/api/listing/claims', bob, { token_id: otherListed.id })).statusCode).toBe(200);
  });
});

describe('logos and links', () => {
  it('refuses another token’s logo, links with user:pw@ and a Twitter link elsewhere', async () => {
    const logo = await testLogo(t.database.db);
    const a = await issueToken(client, { ticker: 'LGA', amounts: ['1'] });
    const b = await issueToken(client, { ticker: 'LGB', amounts: ['1'] });
    await listAs(bob, a.issuer.address, { logoUrl: logo });
    const reuse = await post(ADD, mallory, {
      issuer_address: b.issuer.address,
      name: 'Copy',
      description: '',
      logoUrl: logo,
    });
    expect([reuse.statusCode, reuse.json().message]).toEqual([400, IDENTITY_MESSAGES.logoInUse]);
    for (const [field, url, message] of [
      ['websiteLink', 'https://user:pw@lgb.example/', DEPLOY_MESSAGES.linkUserinfo],
      ['twitterLink', 'https://x.com@phish.example/lgb', DEPLOY_MESSAGES.linkUserinfo],
      ['twitterLink', 'https://phish.example/lgb', DEPLOY_MESSAGES.twitter],
      ['websiteLink', 'http://lgb.example/', DEPLOY_MESSAGES.websiteHttps],
    ] as const) {
      const r = await post(ADD, mallory, {
        issuer_address: b.issuer.address,
        name: 'Copy',
        description: '',
        [field]: url,
      });
      expect([r.statusCode, r.json().message], url).toEqual([400, message]);
    }

    // A deploy: a logo that is not stored, or another token's, is refused before anything is signed.
    const walletId = ((await post('/api/wallets', alice, {})).json() as { id: number }).id;
    const deploy = (logoUrl: string) =>
      post('/api/deploy-token', alice, {
        name: 'Logo Check',
        ticker: 'LOGC',
        description: '',
        supply: '1000000',
        devAllocation: '0',
        liquidityAmount: '10',
        ammFee: '0.5',
        logoUrl,
        walletId,
      });
    const missing = await deploy(`/cdn/logos/${'ab'.repeat(32)}.png`);
    expect([missing.statusCode, missing.json().message]).toEqual([400, LISTING_MESSAGES.logoUrl]);
    const taken = await deploy(logo);
    expect([taken.statusCode, taken.json().message]).toEqual([400, IDENTITY_MESSAGES.logoInUse]);
  });
});
