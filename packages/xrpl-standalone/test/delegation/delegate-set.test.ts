// DelegateSet through xrpl.js (rippled DelegateSet.cpp, PermissionDelegationV1_1): the Delegate
// entry (keylet, both directories, one owner reserve on the granting account), replacing and
// revoking the list, and the refusals — too many, duplicates, delegating to oneself, permissions
// that can never be delegated or whose transaction's amendment is off, an unknown or pseudo
// account, the reserve. Fees: 12 drops (xrpl.js) or 10 (raw); reserves 1 XRP + 0.2 XRP per object.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { DEFAULT_AMENDMENTS } from '../../src/core/amendments';
import { expectResult, funded, issue, issuer, request, submitRaw, usd, type Dex } from '../dex/helpers';
import { accountRoot, fundedDrops, startEscrowLedger, stateHashes } from '../escrow/helpers';
import { affected, ledgerEntry } from '../checks/helpers';
import { delegateIndex, delegatesOf, grant, sendFor } from './helpers';

let dex: Dex;

beforeAll(async () => {
  dex = await startEscrowLedger();
}, 60_000);

afterAll(async () => dex?.close());

const FEE = 12;
const XRP = 1_000_000;
const permissionsOf = (entry: Record<string, unknown>) =>
  (entry.Permissions as Array<{ Permission: { PermissionValue: unknown } }>).map(
    (p) => p.Permission.PermissionValue,
  );

describe('DelegateSet', () => {
  it('grants permissions in a Delegate entry listed in both directories, with one reserve on the granting account', async () => {
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    const created = await expectResult(
      dex,
      alice,
      grant(bob, ['Payment', 'TrustlineAuthorize', 'AccountDomainSet']),
    );
    const index = delegateIndex(alice.address, bob.address);
    const entry = await ledgerEntry(dex, { delegate: { account: alice.address, authorize: bob.address } });
    expect(entry).toMatchObject({
      LedgerEntryType: 'Delegate',
      Flags: 0,
      Account: alice.address,
      Authorize: bob.address,
      OwnerNode: '0',
      DestinationNode: '0',
      PreviousTxnID: created.hash,
      index,
    });
    // Permissions read back by name, as rippled prints them.
    expect(permissionsOf(entry)).toEqual(['Payment', 'TrustlineAuthorize', 'AccountDomainSet']);
    expect((await delegatesOf(dex, alice.address)).map((d) => d.index)).toEqual([index]);
    expect((await delegatesOf(dex, bob.address)).map((d) => d.index)).toEqual([index]);
    expect(await accountRoot(dex, alice.address)).toMatchObject({
      Balance: String(100 * XRP - FEE),
      OwnerCount: 1,
    });
    expect(await accountRoot(dex, bob.address)).toMatchObject({ Balance: String(100 * XRP), OwnerCount: 0 });
    // rippled threads only the entry's Account: Bob's root is not part of the transaction.
    expect(affected(created.meta, 'CreatedNode', 'Delegate', index)?.NewFields).toEqual({
      Account: alice.address,
      Authorize: bob.address,
      Permissions: entry.Permissions,
    });
    const roots = (
      created.meta?.AffectedNodes as Array<
        Record<string, { LedgerEntryType: string; FinalFields?: { Account?: string } }>
      >
    )
      .map((n) => n.ModifiedNode ?? n.CreatedNode)
      .filter((n) => n?.LedgerEntryType === 'AccountRoot')
      .map((n) => n?.FinalFields?.Account);
    expect(roots).toEqual([alice.address]);
    // The entry serializes as the codec does: xrpl.js's state-tree hash matches the ledger's.
    const hashes = await stateHashes(dex);
    expect(hashes.computed).toBe(hashes.ledger);

    // The list is replaced as a whole; still one entry, one reserve.
    const replaced = await expectResult(dex, alice, grant(bob, ['CheckCreate']));
    expect(permissionsOf(await ledgerEntry(dex, { index }))).toEqual(['CheckCreate']);
    const modified = affected(replaced.meta, 'ModifiedNode', 'Delegate', index) as {
      PreviousFields?: Record<string, unknown>;
    };
    expect(Object.keys(modified.PreviousFields ?? {})).toEqual(['Permissions']);
    expect(await accountRoot(dex, alice.address)).toMatchObject({ OwnerCount: 1 });

    // An empty list revokes: the entry leaves both directories and the reserve is released.
    const revoked = await expectResult(dex, alice, grant(bob, []));
    expect(affected(revoked.meta, 'DeletedNode', 'Delegate', index)).toBeDefined();
    expect(await delegatesOf(dex, alice.address)).toEqual([]);
    expect(await delegatesOf(dex, bob.address)).toEqual([]);
    // Nothing left to revoke.
    await expectResult(dex, alice, grant(bob, []), 'tecNO_ENTRY');
    expect(await accountRoot(dex, alice.address)).toMatchObject({
      Balance: String(100 * XRP - 4 * FEE),
      OwnerCount: 0,
    });
  });

  it('refuses lists rippled refuses: too many, duplicates, self, non-delegable or disabled types', async () => {
    const alice = await funded(dex, 100);
    const bob = await funded(dex, 100);
    const ten = [
      'Payment',
      'EscrowCreate',
      'EscrowFinish',
      'EscrowCancel',
      'OfferCreate',
      'OfferCancel',
      'TicketCreate',
      'PaymentChannelCreate',
      'PaymentChannelFund',
      'CheckCreate',
    ];
    expect(await submitRaw(dex, alice, grant(bob, [...ten, 'CheckCash']))).toBe('temARRAY_TOO_LARGE');
    expect(await submitRaw(dex, alice, grant(alice, ['Payment']))).toBe('temMALFORMED');
    expect(await submitRaw(dex, alice, grant(bob, ['Payment', 'Payment']))).toBe('temMALFORMED');
    // The number 1 is the Payment permission (type 0 + 1): a duplicate too.
    expect(await submitRaw(dex, alice, grant(bob, ['Payment', 1]))).toBe('temMALFORMED');
    for (const never of [
      'AccountSet',
      'SetRegularKey',
      'SignerListSet',
      'AccountDelete',
      'DelegateSet',
      'Batch',
      'EnableAmendment',
      'LedgerStateFix',
      'VaultCreate',
      'Invalid',
    ]) {
      expect(await submitRaw(dex, alice, grant(bob, [never])), never).toBe('temMALFORMED');
    }
    // DID and MPTokensV1 are not enabled here: their transactions cannot be delegated.
    expect(await submitRaw(dex, alice, grant(bob, ['DIDSet']))).toBe('temMALFORMED');
    expect(await submitRaw(dex, alice, grant(bob, ['MPTokenIssuanceLock']))).toBe('temMALFORMED');
    // None of those was charged (tem); ten permissions are allowed.
    expect(await submitRaw(dex, alice, grant(bob, ten))).toBe('tesSUCCESS');
    expect(
      permissionsOf(await ledgerEntry(dex, { index: delegateIndex(alice.address, bob.address) })),
    ).toEqual(ten);
    expect(await accountRoot(dex, alice.address)).toMatchObject({
      Balance: String(100 * XRP - 10),
      OwnerCount: 1,
    });
  });

  it('refuses an unknown or pseudo-account delegate and a grant without the reserve', async () => {
    const alice = await funded(dex, 100);
    await expectResult(dex, alice, grant(Wallet.generate(), ['Payment']), 'tecNO_TARGET');

    // An AMM's account: its directory must stay the pool's own.
    const gw = await issuer(dex);
    const lp = await funded(dex, 1000);
    await issue(dex, gw, lp, 'USD', '1000');
    await expectResult(dex, lp, {
      TransactionType: 'AMMCreate',
      Amount: '10000000',
      Amount2: usd(gw, '100'),
      TradingFee: 0,
    });
    const info = await request<{ amm: { account: string } }>(dex, {
      command: 'amm_info',
      asset: { currency: 'XRP' },
      asset2: { currency: 'USD', issuer: gw.address },
    });
    expect(
      await submitRaw(dex, alice, {
        TransactionType: 'DelegateSet',
        Authorize: info.amm.account,
        Permissions: [{ Permission: { PermissionValue: 'Payment' } }],
      }),
    ).toBe('tecPSEUDO_ACCOUNT');

    // The reserve: the balance before the fee must cover one more owned object (1.2 XRP).
    const bob = await funded(dex, 100);
    const poor = await fundedDrops(dex, '1199999');
    await expectResult(dex, poor, grant(bob, ['Payment']), 'tecINSUFFICIENT_RESERVE');
    const exact = await fundedDrops(dex, '1200000');
    await expectResult(dex, exact, grant(bob, ['Payment']));
    expect(await accountRoot(dex, exact.address)).toMatchObject({
      Balance: String(1_200_000 - FEE),
      OwnerCount: 1,
    });
  });
});

describe('server_definitions', () => {
  it('knows the Check and Delegate types, fields and result codes (ripple-binary-codec’s definitions)', async () => {
    const defs = await request<{
      TRANSACTION_TYPES: Record<string, number>;
      LEDGER_ENTRY_TYPES: Record<string, number>;
      TRANSACTION_RESULTS: Record<string, number>;
      FIELDS: Array<[string, { type: string }]>;
    }>(dex, { command: 'server_definitions' });
    expect(defs.TRANSACTION_TYPES).toMatchObject({
      CheckCreate: 16,
      CheckCash: 17,
      CheckCancel: 18,
      DelegateSet: 64,
    });
    expect(defs.LEDGER_ENTRY_TYPES).toMatchObject({ Check: 67, Delegate: 131 });
    expect(defs.TRANSACTION_RESULTS.terNO_DELEGATE_PERMISSION).toBe(-85);
    const fields = new Map(defs.FIELDS);
    expect(fields.get('Delegate')?.type).toBe('AccountID');
    expect(fields.get('Permissions')?.type).toBe('STArray');
    expect(fields.get('PermissionValue')?.type).toBe('UInt32');
    expect(fields.get('CheckID')?.type).toBe('Hash256');
  });
});

describe('without PermissionDelegationV1_1', () => {
  let old: Dex;
  beforeAll(async () => {
    old = await startEscrowLedger(DEFAULT_AMENDMENTS.filter((a) => a !== 'PermissionDelegationV1_1'));
  }, 60_000);
  afterAll(async () => old?.close());

  it('refuses DelegateSet and the Delegate field (temDISABLED)', async () => {
    const alice = await funded(old, 100);
    const bob = await funded(old, 100);
    expect(await submitRaw(old, alice, grant(bob, ['Payment']))).toBe('temDISABLED');
    const r = await sendFor(old, bob, alice, {
      TransactionType: 'Payment',
      Destination: bob.address,
      Amount: '1000',
    });
    expect(r.result).toBe('temDISABLED');
  });
});
