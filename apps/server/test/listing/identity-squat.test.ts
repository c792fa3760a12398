import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSet, Client } from 'xrpl';
import {
  IDENTITY_MESSAGES,
  identityBadge,
  type ClaimChallengeView,
  type IdentityEventView,
  type ListingControlView,
  type TokenSuggestion,
} from '@ledgerpad/shared';
import { submitAndWait } from '../helpers/submit-and-wait';
import { testLogo } from '../helpers/test-logo';
import type { SignedIn, TestApp } from '../helpers/test-app';
import { identityApp, identityCalls, metadata } from './identity-world';
import { issueToken } from './issuer-fixture';

// Issue 35, the badge kept by the wrong party, tried as a scammer would with outside xrpl.js
// wallets on the embedded ledger:
// - the ZETA squat: a squatter's ZETA, issued first and listed first with a proof of its own issuer,
//   never outranks the real ZETA: ledger facts (holders, trust lines) decide, not listing order;
//   the real issuer's proof is never downgraded; an admin's decision applies to both sides;
// - spacing, separators and look-alike digits fold alike at every door (listing, rename, deploy)
//   and in search;
// - a change of controller is public in the token's history and shown to the user who lost it.

const ADD = '/api/admin/tokens/add';

let t: TestApp;
let client: Client;
let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;
let dave: SignedIn;
let erin: SignedIn;
let owner: SignedIn;
let calls: ReturnType<typeof identityCalls>;

beforeAll(async () => {
  t = await identityApp();
  client = t.ledger!.client;
  calls = identityCalls(t);
  [alice, bob, carol, dave, erin, owner] = await Promise.all([
    t.signIn('alice_zeta'),
    t.signIn('bob_squat'),
    t.signIn('carol_cat'),
    t.signIn('dave_first'),
    t.signIn('erin_next'),
    t.signInOwner(),
  ]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const post = (url: string, who: SignedIn, payload: object) => calls.post(url, who, payload);
const get = (url: string, who?: SignedIn) => calls.get(url, who);
const listAs = (who: SignedIn, issuer: string, name: string) => calls.listAs(who, issuer, { name });
const view = (issuer: string) => calls.view(issuer);
const importWallet = (who: SignedIn, seed: string) => calls.importWallet(who, seed);

describe('the ZETA squat', () => {
  it('a squatter’s ZETA, issued and listed first with a proof of its own issuer, gives way to the real ZETA by ledger facts', async () => {
    // The squatter's ZETA comes first on the ledger (one holder), from an issuer it controls.
    const squat = await issueToken(client, { ticker: 'ZETA', amounts: ['1000'] });
    // The real ZETA comes later, with four holders (four trust lines).
    const real = await issueToken(client, { ticker: 'ZETA', amounts: ['10', '20', '30', '40'] });
    expect(squat.firstLineAt!.getTime()).toBeLessThan(real.firstLineAt!.getTime());

    // The squatter imports its issuer into a Ledgerpad wallet and lists first, as 'Zeta Protocol'.
    await importWallet(bob, squat.issuer.seed!);
    const fake = await listAs(bob, squat.issuer.address, 'Zeta Protocol');
    // The badge says exactly what was proven: it controls that issuer, nothing about a project.
    expect(fake).toMatchObject({ verified: true, verified_by: 'wallet', lookalike_of: null, same_as: null });
    expect(identityBadge(fake)).toBe('Controls the issuer');

    // The real team lists its ZETA, not proven yet. The order is the ledger's: 4 holders and 4
    // trust lines against 1 and 1 outweigh the squatter's earlier issuance (2 facts to 1), so the
    // squatter's ZETA now reads 'same ticker as ZETA', linking the real one — whatever its badge.
    const listed = await listAs(alice, real.issuer.address, 'Zeta Protocol');
    expect(listed).toMatchObject({ verified: false, lookalike_of: null, same_as: null });
    const sameAsReal = {
      match: 'ticker',
      ticker: 'ZETA',
      name: 'Zeta Protocol',
      issuer_address: real.issuer.address,
      currency: real.currency,
    };
    expect(await view(squat.issuer.address)).toMatchObject({
      verified: true,
      verified_by: 'wallet',
      lookalike_of: 'ZETA',
      same_as: sameAsReal,
    });

    // The real issuer proves control with a claim code signed in its own wallet (xrpl.js here).
    const code = (
      await post('/api/listing/claims', alice, { token_id: listed.id })
    ).json() as ClaimChallengeView;
    const sent = await submitAndWait(client, code.transaction as AccountSet, real.issuer);
    expect((sent.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
    const claim = await post('/api/listing/claims/verify', alice, {
      token_id: listed.id,
      method: 'challenge',
      ...metadata('Zeta Protocol'),
    });
    expect(claim.statusCode, claim.body).toBe(200);
    // Its proof is never downgraded by the squatter's earlier listing.
    expect(claim.json().token).toMatchObject({
      verified: true,
      verified_by: 'challenge',
      lookalike_of: null,
      same_as: null,
    });

    // Search and the swap autocomplete: the real one first, by ticker and by name.
    for (const q of ['zeta', 'zeta%20protocol', 'ZetaProtocol', 'Z3TA']) {
      const found = (await get(`/api/swapsearch/search-tokens/${q}`)).json() as TokenSuggestion[];
      expect(
        found.map((f) => [f.issuer_address, f.lookalike_of]),
        q,
      ).toEqual([
        [real.issuer.address, null],
        [squat.issuer.address, 'ZETA'],
      ]);
    }

    // An admin checks the real one: the squatter keeps its own (true) badge and its mark.
    expect((await post(`/api/admin/tokens/${listed.id}/verify`, owner, { verified: true })).statusCode).toBe(
      200,
    );
    expect(await view(squat.issuer.address)).toMatchObject({
      verified: true,
      lookalike_of: 'ZETA',
      same_as: sameAsReal,
    });

    // An admin's decision applies to both sides: checking the squatter instead (by mistake) would
    // put it first and mark the real one; withdrawn, the admin's check of the real one stands again.
    expect((await post(`/api/admin/tokens/${listed.id}/verify`, owner, { verified: false })).statusCode).toBe(
      200,
    );
    expect((await post(`/api/admin/tokens/${fake.id}/verify`, owner, { verified: true })).statusCode).toBe(
      200,
    );
    expect(await view(real.issuer.address)).toMatchObject({
      lookalike_of: 'ZETA',
      same_as: { match: 'ticker', issuer_address: squat.issuer.address },
    });
    expect(await view(squat.issuer.address)).toMatchObject({
      verified_by: 'admin',
      lookalike_of: null,
      same_as: null,
    });
    expect((await post(`/api/admin/tokens/${fake.id}/verify`, owner, { verified: false })).statusCode).toBe(
      200,
    );
    // The admin's withdrawal also withdrew the squatter's wallet proof; the facts decide again.
    expect(await view(squat.issuer.address)).toMatchObject({
      verified: false,
      lookalike_of: 'ZETA',
      same_as: sameAsReal,
    });
    expect(await view(real.issuer.address)).toMatchObject({
      verified: false,
      lookalike_of: null,
      same_as: null,
    });
  });
});

describe('one fold at every door: spacing, separators, look-alike digits', () => {
  it('refuses a name reading as a verified token’s or a reserved one; marks a same-name token with less history; folds search', async () => {
    // Ledger Cat, listed by its issuer's owner: verified, protected.
    const cat = await issueToken(client, { ticker: 'LCAT', amounts: ['5', '5'] });
    await importWallet(carol, cat.issuer.seed!);
    const ledgerCat = await listAs(carol, cat.issuer.address, 'Ledger Cat');
    expect(ledgerCat).toMatchObject({ verified: true, verified_by: 'wallet', lookalike_of: null });

    // 'LedgerCat' under another ticker: refused at the door (it reads as the verified Ledger Cat).
    const copyCat = await issueToken(client, { ticker: 'LCT', amounts: ['1'] });
    for (const name of ['LedgerCat', 'Ledger  Cat', 'L3dger  C4t', 'LCAT']) {
      const r = await post(ADD, bob, { issuer_address: copyCat.issuer.address, name, description: '' });
      expect([r.statusCode, r.json().message], name).toEqual([400, IDENTITY_MESSAGES.verifiedName('LCAT')]);
    }

    // RLUSD's and XRP's names, however spaced or spelled: refused.
    const rusd = await issueToken(client, { ticker: 'RUSD', amounts: ['1'] });
    for (const [name, reserved] of [
      ['RippleUSD', 'RLUSD'],
      ['R1pple USD', 'RLUSD'],
      ['X R P', 'XRP'],
    ]) {
      const r = await post(ADD, bob, { issuer_address: rusd.issuer.address, name, description: '' });
      expect([r.statusCode, r.json().message], name).toEqual([
        400,
        IDENTITY_MESSAGES.reservedName(reserved!),
      ]);
    }

    // Harbor Light (three holders, unverified) and, later, HarborLight (one holder) listed from its
    // own issuer's wallet: the newer, smaller one reads 'same name as Harbor Light' whatever its badge.
    const harbor = await issueToken(client, { ticker: 'HBL', amounts: ['1', '1', '1'] });
    await listAs(bob, harbor.issuer.address, 'Harbor Light');
    const harbor2 = await issueToken(client, { ticker: 'HBX', amounts: ['1'] });
    await importWallet(dave, harbor2.issuer.seed!);
    const copy = await listAs(dave, harbor2.issuer.address, 'HarborLight');
    expect(copy).toMatchObject({
      verified: true,
      lookalike_of: 'HBL',
      same_as: { match: 'name', name: 'Harbor Light', issuer_address: harbor.issuer.address },
    });
    expect(await view(harbor.issuer.address)).toMatchObject({ verified: false, lookalike_of: null });
    // Search folds the query too: the one with more history first, however it is typed.
    for (const q of ['harbor', 'harbor%20light', 'H4RB0R']) {
      const found = (await get(`/api/swapsearch/search-tokens/${q}`)).json() as TokenSuggestion[];
      expect(
        found.map((f) => f.issuer_address),
        q,
      ).toEqual([harbor.issuer.address, harbor2.issuer.address]);
    }

    // Renames: the controller (and an admin) cannot rename into a reserved or a protected identity.
    for (const [name, message] of [
      ['R1pple USD', IDENTITY_MESSAGES.reservedName('RLUSD')],
      ['X R P', IDENTITY_MESSAGES.reservedName('XRP')],
      ['Ledger  Cat', null],
    ] as const) {
      const r = await post(`/api/listing/tokens/${ledgerCat.id}/metadata`, carol, metadata(name));
      if (message) expect([r.statusCode, r.json().message], name).toEqual([400, message]);
      // Its own name, however spaced, is its own.
      else expect(r.statusCode, r.body).toBe(200);
    }
    const adminRename = await post(`/api/admin/tokens/${copy.id}/update`, owner, metadata('X R P'));
    expect([adminRename.statusCode, adminRename.json().message]).toEqual([
      400,
      IDENTITY_MESSAGES.reservedName('XRP'),
    ]);

    // Deploys: a reserved name, a protected ticker or name, however written, refused before anything is signed.
    const logo = await testLogo(t.database.db);
    // A wallet of Erin's own (the wallet is checked first); nothing is signed, so it needs no XRP.
    const walletId = ((await post('/api/wallets', erin, {})).json() as { id: number }).id;
    const deploy = (over: object) =>
      post('/api/deploy-token', erin, {
        name: 'Fresh Token',
        ticker: 'FRSH',
        description: '',
        supply: '1000000',
        devAllocation: '0',
        liquidityAmount: '10',
        ammFee: '0.5',
        logoUrl: logo,
        walletId,
        ...over,
      });
    for (const [over, field, message] of [
      [{ name: 'R1pple USD' }, 'name', IDENTITY_MESSAGES.reservedName('RLUSD')],
      [{ ticker: 'LCAT' }, 'ticker', IDENTITY_MESSAGES.verifiedTicker('LCAT')],
      [{ name: 'Ledger  C4t' }, 'name', IDENTITY_MESSAGES.verifiedName('LCAT')],
    ] as const) {
      const r = await deploy(over);
      expect([r.statusCode, r.json().message, r.json().fields?.[0]?.path], JSON.stringify(over)).toEqual([
        400,
        message,
        field,
      ]);
    }
  });
});

describe('a change of controller', () => {
  it('is public in the token’s history and shown to the user who lost it', async () => {
    const token = await issueToken(client, { ticker: 'HND', amounts: ['5'] });
    // Dave controls it first (the issuer is his wallet) …
    await importWallet(dave, token.issuer.seed!);
    const listed = await listAs(dave, token.issuer.address, 'Hand Over');
    // … then the issuer signs a claim naming Erin (the key changed hands): a binding proof.
    const code = (
      await post('/api/listing/claims', erin, { token_id: listed.id })
    ).json() as ClaimChallengeView;
    expect(code.claim_text).toContain(
      `make erin_next (user #${erin.user.id}) controller of HND listing #${listed.id}`,
    );
    const sent = await submitAndWait(client, code.transaction as AccountSet, token.issuer);
    const claim = await post('/api/listing/claims/verify', erin, {
      token_id: listed.id,
      method: 'challenge',
      ...metadata('Hand Over'),
    });
    expect(claim.statusCode, claim.body).toBe(200);

    const lost = (await get(`/api/listing/control?token_id=${listed.id}`, dave)).json() as ListingControlView;
    expect(lost).toMatchObject({
      controller: false,
      lost_control: { token_id: listed.id, ticker: 'HND', method: 'challenge', evidence: sent.hash },
    });
    expect(lost.lost_control!.message).toMatch(
      /^You are no longer the controller of HND: another user proved control/,
    );
    expect(((await get('/api/listing/lost-control', dave)).json() as unknown[]).length).toBe(1);
    expect((await get(`/api/listing/control?token_id=${listed.id}`, erin)).json()).toMatchObject({
      controller: true,
      lost_control: null,
    });

    // Public, for anyone: every step, the change of controller with its proof, and no user named.
    const res = await get(`/api/tokens/${token.issuer.address}/identity-history`);
    expect(res.statusCode).toBe(200);
    const history = res.json() as IdentityEventView[];
    expect(history.map((h) => [h.action, h.controller_changed, h.evidence])).toEqual([
      ['list', false, null],
      ['claim', true, sent.hash],
    ]);
    expect(history[1]!.text).toBe('The controller changed: the issuer signed a claim naming the controller.');
    expect(res.body).not.toMatch(/dave_first|erin_next/);
  });
});
