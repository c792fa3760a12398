import { writeFile } from 'node:fs/promises';
import { brotliCompressSync, constants } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_MEMORY_OPTIONS } from '../db/client';
import { PGLITE_TEMPLATE_FILE } from '../db/pglite-template';

// `npm run db:pglite-template -w apps/server`: writes initdb's output for the installed PGlite, which
// the first start on an empty data directory loads instead of running initdb (see db/client.ts).
// Run it after upgrading @electric-sql/pglite; the migrations are not in it (they run at every start).

const pg = new PGlite({ ...PGLITE_MEMORY_OPTIONS });
await pg.waitReady;
await pg.exec('checkpoint');
const tar = Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer());
const version = (await pg.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]?.v;
await pg.close();
// Mostly zero-filled pages and a 16MB WAL segment: brotli's large window takes 40MB to ~1.4MB.
const compressed = brotliCompressSync(tar, {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 11,
    [constants.BROTLI_PARAM_LGWIN]: 24,
    [constants.BROTLI_PARAM_SIZE_HINT]: tar.length,
  },
});
await writeFile(PGLITE_TEMPLATE_FILE, compressed);
console.log(
  `${PGLITE_TEMPLATE_FILE}: PostgreSQL ${version}, ${tar.length} bytes of tar, ${compressed.length} compressed`,
);
