import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bondingConfigView } from '@ledgerpad/shared';
import { platformSettings } from '../../src/db/schema';
import type { Database } from '../../src/db/client';
import { PlatformSettings, SETTING_DEFAULTS } from '../../src/platform/settings';
import { createTestDatabase } from '../db';

// GET /api/config/fees's view: computed once per change of the settings or the reserves, and
// exactly what computing it afresh gives.

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const OWNER = 200_000n;
const BASE = 1_000_000n;

describe('PlatformSettings.fees', () => {
  it('computes the view once while nothing changes, equal to a fresh computation', async () => {
    const settings = new PlatformSettings(database.db);
    const first = await settings.fees(OWNER, BASE);
    const second = await settings.fees(OWNER, BASE);
    expect(second).toBe(first); // the same object: not computed again
    expect(first.bonding).toEqual(bondingConfigView(SETTING_DEFAULTS, { base: BASE, owner: OWNER }));
    expect(first).toMatchObject({
      service_fee: SETTING_DEFAULTS.service_fee,
      owner_reserve: '0.2',
    });
  });

  it('computes it again after a settings change, also one written by another instance', async () => {
    const settings = new PlatformSettings(database.db);
    const before = await settings.fees(OWNER, BASE);
    await settings.set('bonding_virtual_xrp', '2000');
    const after = await settings.fees(OWNER, BASE);
    expect(after).not.toBe(before);
    expect(after.bonding).toEqual(
      bondingConfigView({ ...SETTING_DEFAULTS, bonding_virtual_xrp: '2000' }, { base: BASE, owner: OWNER }),
    );
    expect(after.bonding.graduation_xrp).not.toBe(before.bonding.graduation_xrp);

    // Another instance (or the admin panel) writes the row itself: read on the next call.
    await database.db
      .insert(platformSettings)
      .values({ key: 'service_fee', value: '20' })
      .onConflictDoUpdate({ target: platformSettings.key, set: { value: '20' } });
    const edited = await settings.fees(OWNER, BASE);
    expect(edited.service_fee).toBe('20');
    expect(edited.bonding).toEqual(after.bonding);
  });

  it('computes it again when the ledger reserves change', async () => {
    const settings = new PlatformSettings(database.db);
    const now = await settings.fees(OWNER, BASE);
    const lowered = await settings.fees(100_000n, 500_000n);
    expect(lowered).not.toBe(now);
    expect(lowered.owner_reserve).toBe('0.1');
    expect(lowered.bonding.deposit_xrp).not.toBe(now.bonding.deposit_xrp);
  });
});
