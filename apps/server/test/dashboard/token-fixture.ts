import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { decodeAccountID, Wallet, AccountSetAsfFlags, TrustSetFlags } from 'xrpl';
import { tickerToCurrency } from '@ledgerpad/shared';
import type { TxRequest } from '../../src/ledger/submission-service';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { insertWallet, platformWallet } from '../../src/platform/custody';
import { TokenRegistry, type TokenRow } from '../../src/modules/tokens';
import type { SignedIn } from '../helpers/test-app';
import type { WalletTestApp } from '../wallets/wallet-app';

// A deployed token built by hand, the way the deploy job leaves one: an issuer wallet in custody
// (role deploy_issuer, owned by the deployer) funded from the stand-alone genesis, DefaultRipple
// (and RequireAuth when asked), holders' custodial wallets with trust lines, amounts issued, and the
// token row (source 'deploy'). Every transaction goes through the app's own submission service, so
// the accounts' sequences stay the service's.

export const TRUST_LIMIT = '1000000000';
const ASF_REQUIRE_AUTH = AccountSetAsfFlags.asfRequireAuth;
const ASF_DEFAULT_RIPPLE = AccountSetAsfFlags.asfDefaultRipple;
const TF_SETF_AUTH = TrustSetFlags.tfSetfAuth;

/** Signs `tx` for `account` (a key the platform holds) and expects tesSUCCESS on a validated ledger. */
export async function submitOk(t: WalletTestApp, account: string, tx: TxRequest) {
  const outcome = await submitTx(t, account, tx);
  expect(outcome.result, `${tx.TransactionType} of ${account}`).toBe('tesSUCCESS');
  return outcome;
}

export function submitTx(t: WalletTestApp, account: string, tx: TxRequest) {
  return t.app.platform.submissions!.submit({
    intentKey: `fixture:${randomUUID()}`,
    account,
    tx,
    purpose: 'test-fixture',
  });
}

/** A new custodial wallet of `who`, funded by the stand-alone faucet. */
export async function fundedUserWallet(
  t: WalletTestApp,
  who: SignedIn,
): Promise<{ id: number; address: string }> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/wallets',
    headers: who.headers,
    payload: {},
  });
  expect(created.statusCode).toBe(200);
  const w = created.json() as { id: number; wallet_address: string };
  const funded = await t.app.inject({
    method: 'POST',
    url: `/api/wallets/${w.id}/fund`,
    headers: who.headers,
  });
  expect(funded.statusCode).toBe(200);
  return { id: w.id, address: w.wallet_address };
}

export interface Holder {
  wallet: { id: number; address: string };
  /** Issued to it (decimal string); '0' opens the line only. */
  amount: string;
}

export interface FixtureToken {
  row: TokenRow;
  issuer: string;
  currency: string;
}

export async function deployedToken(
  t: WalletTestApp,
  deployer: SignedIn,
  opts: { ticker: string; requireAuth?: boolean; holders: Holder[] },
): Promise<FixtureToken> {
  const db = t.database.db;
  const currency = tickerToCurrency(opts.ticker);
  const issuerRow = await insertWallet(db, t.app.platform.keyring, {
    userId: deployer.user.id,
    role: 'deploy_issuer',
    name: `${opts.ticker} issuer`,
    wallet: Wallet.generate(),
  });
  const issuer = issuerRow.address;
  const genesis = await platformWallet(db, PLATFORM_ROLES.genesis);
  await submitOk(t, genesis!.address, {
    TransactionType: 'Payment',
    Destination: issuer,
    Amount: '100000000',
  });
  await submitOk(t, issuer, { TransactionType: 'AccountSet', SetFlag: ASF_DEFAULT_RIPPLE });
  if (opts.requireAuth)
    await submitOk(t, issuer, { TransactionType: 'AccountSet', SetFlag: ASF_REQUIRE_AUTH });
  for (const h of opts.holders) {
    await submitOk(t, h.wallet.address, {
      TransactionType: 'TrustSet',
      LimitAmount: { currency, issuer, value: TRUST_LIMIT },
    });
    if (h.amount === '0') continue;
    if (opts.requireAuth) {
      await submitOk(t, issuer, {
        TransactionType: 'TrustSet',
        LimitAmount: { currency, issuer: h.wallet.address, value: '0' },
        Flags: TF_SETF_AUTH,
      });
    }
    await submitOk(t, issuer, {
      TransactionType: 'Payment',
      Destination: h.wallet.address,
      Amount: { currency, issuer, value: h.amount },
    });
  }
  const row = await new TokenRegistry(db).insert({
    name: `${opts.ticker} Token`,
    ticker: opts.ticker,
    currency,
    issuerAddress: issuer,
    supply: '1000000',
    requireAuth: opts.requireAuth ?? false,
    source: 'deploy',
    deployerUserId: deployer.user.id,
    issuerWalletId: issuerRow.id,
  });
  return { row: row!, issuer, currency };
}

/** The RippleState between issuer and holder, and which side of it is the issuer's. */
export async function rippleState(t: WalletTestApp, issuer: string, holder: string, currency: string) {
  const res = await t.connection.client.request({
    command: 'ledger_entry',
    ripple_state: { accounts: [issuer, holder], currency },
    ledger_index: 'validated',
  });
  const node = res.result.node as { Flags: number };
  // The account with the numerically greater AccountID is the line's "high" side.
  const issuerIsHigh =
    Buffer.compare(Buffer.from(decodeAccountID(issuer)), Buffer.from(decodeAccountID(holder))) > 0;
  return { flags: node.Flags >>> 0, issuerIsHigh };
}

export async function accountRoot(t: WalletTestApp, account: string) {
  const res = await t.connection.client.request({
    command: 'account_info',
    account,
    ledger_index: 'validated',
  });
  return res.result.account_data as typeof res.result.account_data & { RegularKey?: string };
}
