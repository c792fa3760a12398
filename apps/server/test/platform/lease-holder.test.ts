import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { holderIsGone, newLeaseHolder } from '../../src/platform/lease-holder';

// Which lease holders are certainly dead (platform/lease-holder.ts): the keeper takes their leases
// at once instead of waiting them out.

describe('lease holders', () => {
  it('a live holder of this process is alive; once released, it is this process in a former life', () => {
    const holder = newLeaseHolder();
    expect(holder.id).toMatch(new RegExp(`^${hostname()}:${process.pid}/[0-9a-f]{12}$`));
    expect(holderIsGone(holder.id)).toBe(false);
    // A second holder in the same process (two apps on one database in a test) is alive too.
    const other = newLeaseHolder();
    expect(holderIsGone(other.id)).toBe(false);
    holder.release();
    expect(holderIsGone(holder.id)).toBe(true);
    expect(holderIsGone(other.id)).toBe(false);
    other.release();
  });

  it('a holder whose process on this host has exited is gone; one still running is not', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    await once(child, 'spawn');
    const id = `${hostname()}:${child.pid}/0123456789ab`;
    expect(holderIsGone(id)).toBe(false);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(holderIsGone(id)).toBe(true);
    expect(holderIsGone(`${hostname()}:${process.ppid}/0123456789ab`)).toBe(false);
  });

  it('a holder on another host, or a name it cannot read, is never judged dead (its lease runs out)', () => {
    expect(holderIsGone(`another-${hostname()}:${process.pid}/0123456789ab`)).toBe(false);
    expect(holderIsGone('another-host:1/0123456789ab')).toBe(false);
    expect(holderIsGone('garbage')).toBe(false);
    expect(holderIsGone(`${hostname()}:notapid/ab`)).toBe(false);
  });
});
