import { request } from 'playwright-core';
import { expect, inject } from 'vitest';

/**
 * Platform settings on the shared server, as its owner (the session global-setup signed in with the
 * one-time owner link) through the admin API: POST /api/admin/platform-config/update.
 */
export async function ownerSettings(settings: Record<string, string>): Promise<void> {
  const owner = await request.newContext({ storageState: JSON.parse(inject('ownerSession')) as never });
  try {
    const url = inject('serverUrl');
    const { token } = (await (await owner.get(`${url}/api/csrf-token`)).json()) as { token: string };
    const saved = await owner.post(`${url}/api/admin/platform-config/update`, {
      headers: { 'x-csrf-token': token },
      data: { settings },
    });
    expect(saved.ok(), await saved.text()).toBe(true);
  } finally {
    await owner.dispose();
  }
}
