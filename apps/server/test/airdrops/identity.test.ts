import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'xrpl';
import { DEPLOY_MESSAGES, IDENTITY_MESSAGES, RLUSD_CURRENCY_HEX, tickerToCurrency } from '@ledgerpad/shared';
import { airdrops } from '../../src/modules/airdrops/schema';
import { submitOk } from '../helpers/submit-and-wait';
import type { SignedIn, TestApp } from '../helpers/test-app';
import { identityApp, identityCalls } from '../listing/identity-world';
import { issueToken } from '../listing/issuer-fixture';

// Issue 35, the fake RLUSD airdrop, tried with outside xrpl.js wallets: an outside issuer of
// RLUSD's exact code, a holder of it imported into Ledgerpad, and 'Ripple USD (RLUSD) Official
// Airdrop' with a 'Twitter' link to a phishing site. Every door checks identity: the token code,
// the project name and tagline, the links — each refused with its own sentence, nothing recorded,
// no claimer ever gets a trust line to the fake issuer.

let t: TestApp;
let client: Client;
let mallory: SignedIn;
let owner: SignedIn;

beforeAll(async () => {
  t = await identityApp();
  client = t.ledger!.client;
  [mallory, owner] = await Promise.all([t.signIn('mallory_drop'), t.signInOwner()]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const post = (url: string, who: SignedIn, payload: object) => identityCalls(t).post(url, who, payload);

describe('the fake RLUSD airdrop', () => {
  it('refuses RLUSD’s code from another issuer, a project name or tagline naming a protected token, and a Twitter link elsewhere', async () => {
    // The fake issuer issues RLUSD's exact code (and two other codes) to a holder Mallory controls.
    const fake = await issueToken(client, { ticker: 'RLUSD', amounts: ['1000'] });
    expect(fake.currency).toBe(RLUSD_CURRENCY_HEX);
    const holder = fake.holders[0]!;
    for (const ticker of ['USDR', 'Z3N'])
      await issueToken(client, { ticker, amounts: [], issuer: fake.issuer });
    for (const ticker of ['USDR', 'Z3N']) {
      await submitOk(client, holder, {
        TransactionType: 'TrustSet',
        Account: holder.address,
        LimitAmount: { currency: tickerToCurrency(ticker), issuer: fake.issuer.address, value: '1000000' },
      });
      await submitOk(client, fake.issuer, {
        TransactionType: 'Payment',
        Account: fake.issuer.address,
        Destination: holder.address,
        Amount: { currency: tickerToCurrency(ticker), issuer: fake.issuer.address, value: '500' },
      });
    }
    const imported = await post('/api/wallets/import', mallory, { seed: holder.seed });
    expect(imported.statusCode, imported.body).toBe(200);
    const walletId = (imported.json() as { id: number }).id;

    // A protected token: ZEN, listed by the platform's owner from its own issuer (verified).
    const zen = await issueToken(client, { ticker: 'ZEN', amounts: ['10'] });
    await post('/api/wallets/import', owner, { seed: zen.issuer.seed });
    expect(
      (
        await post('/api/admin/tokens/add', owner, {
          issuer_address: zen.issuer.address,
          name: 'Zen Garden',
          description: '',
        })
      ).json().token,
    ).toMatchObject({ verified: true });

    const drop = (over: object) =>
      post('/api/airdrops', mallory, {
        sourceWalletId: walletId,
        tokenCode: 'RLUSD',
        issuerAddress: fake.issuer.address,
        projectName: 'Ripple USD (RLUSD) Official Airdrop',
        tagline: '',
        perUserType: 'fixed',
        totalTokenAmount: '100',
        fixedAmount: '10',
        deadline: new Date(Date.now() + 3600_000).toISOString(),
        website: 'https://ripple-usd.example',
        twitter: 'https://phish.example/ripple',
        ...over,
      });
    const refusals: Array<[object, string, string]> = [
      // The issue's airdrop as sent: its 'Twitter' link goes elsewhere.
      [{}, 'twitter', DEPLOY_MESSAGES.twitter],
      [{ twitter: 'https://x.com@phish.example/ripple' }, 'twitter', DEPLOY_MESSAGES.linkUserinfo],
      [{ twitter: '', website: 'http://ripple-usd.example' }, 'website', DEPLOY_MESSAGES.websiteHttps],
      // Honest links: RLUSD's code from an issuer that is not RLUSD's, as a ticker or as hex.
      [{ twitter: '' }, 'tokenCode', IDENTITY_MESSAGES.rlusdCode],
      [{ twitter: '', tokenCode: RLUSD_CURRENCY_HEX }, 'tokenCode', IDENTITY_MESSAGES.rlusdCode],
      // Another code of the fake issuer, under the same project name: the name is refused.
      [
        { twitter: '', tokenCode: 'USDR', projectName: 'RLUSD Official Airdrop' },
        'projectName',
        IDENTITY_MESSAGES.airdropProject('RLUSD'),
      ],
      [
        { twitter: '', tokenCode: 'USDR', projectName: 'R L U S D community drop' },
        'projectName',
        IDENTITY_MESSAGES.airdropProject('RLUSD'),
      ],
      [
        { twitter: '', tokenCode: 'USDR', projectName: 'USDR drop', tagline: 'Claim your free X R P' },
        'tagline',
        IDENTITY_MESSAGES.airdropProject('XRP'),
      ],
      [
        { twitter: '', tokenCode: 'USDR', projectName: 'Zen Garden drop' },
        'projectName',
        IDENTITY_MESSAGES.airdropProject('ZEN'),
      ],
      // A lookalike of a protected token from another issuer.
      [
        { twitter: '', tokenCode: 'Z3N', projectName: 'Garden drop' },
        'tokenCode',
        IDENTITY_MESSAGES.airdropToken('ZEN'),
      ],
    ];
    for (const [over, field, message] of refusals) {
      const r = await drop(over);
      expect([r.statusCode, r.json().message, r.json().fields?.[0]?.path], JSON.stringify(over)).toEqual([
        400,
        message,
        field,
      ]);
    }
    // Nothing was recorded: no airdrop, so no claim and no trust line to the fake issuer, ever.
    expect(
      await t.database.db.select().from(airdrops).where(eq(airdrops.issuerAddress, fake.issuer.address)),
    ).toEqual([]);

    // The same wallet's neutral token under its own name passes every identity rule.
    const honest = await drop({
      twitter: '',
      website: '',
      tokenCode: 'USDR',
      projectName: 'USDR community drop',
    });
    expect(honest.statusCode, honest.body).toBe(202);
  });
});
