import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../src/db/client';
import { isEmptyDir, unpackPgliteTemplate } from '../src/db/pglite-template';

// The first start on an empty data directory unpacks the committed initdb template instead of
// running PGlite's initdb (docs/web-delivery.md).
describe('PGlite initdb template', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'ledgerpad-template-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('fits the installed PGlite: a new data directory opens from it, migrates and reopens', async () => {
    const dataDir = path.join(root, 'db');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const first = await openDatabase({ dataDir });
      // A stale template (after a PGlite upgrade) falls back to initdb with this warning:
      // regenerate it with `npm run db:pglite-template -w apps/server`.
      expect(warn).not.toHaveBeenCalled();
      await first.sql.exec("insert into platform_settings(key, value) values ('template_test', '1')");
      expect(readFileSync(path.join(dataDir, 'postgresql.conf'), 'utf8')).toMatch(/shared_buffers = 16MB/);
      await first.close();
    } finally {
      warn.mockRestore();
    }
    expect(existsSync(`${dataDir}.unpacking`)).toBe(false);
    const again = await openDatabase({ dataDir });
    const rows = await again.sql.query<{ value: string }>(
      "select value from platform_settings where key = 'template_test'",
    );
    expect(rows).toEqual([{ value: '1' }]);
    await again.close();
  });

  it('is used only for an empty directory, and reports a missing template file', async () => {
    const dir = path.join(root, 'other');
    expect(isEmptyDir(dir)).toBe(true);
    mkdirSync(dir);
    expect(isEmptyDir(dir)).toBe(true);
    writeFileSync(path.join(dir, 'x'), '');
    expect(isEmptyDir(dir)).toBe(false);
    expect(await unpackPgliteTemplate(path.join(root, 'none'), path.join(root, 'missing.tar.br'))).toBe(
      false,
    );
    expect(existsSync(path.join(root, 'none'))).toBe(false);
  });
});
