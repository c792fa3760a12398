import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { createBrotliDecompress } from 'node:zlib';
import { SERVER_DIR } from '../paths';

// A first start on an empty data directory used to run PGlite's initdb, which works in a second
// PGlite instance beside the one being opened and snapshots its 128MB heap: ~450MB of RSS more than
// any later start (docs/web-delivery.md). Instead, the first start unpacks initdb's output, made
// once by `npm run db:pglite-template -w apps/server`, and opens it like an existing database.

/** initdb's output for the installed PGlite: a tar, brotli-compressed (~1.4MB for 40MB). */
export const PGLITE_TEMPLATE_FILE = path.join(SERVER_DIR, 'src/db/pglite-initdb.tar.br');

const BLOCK = 512;

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

/** A member's path inside `root`, or undefined for a path that would leave it. */
function memberPath(root: string, header: Buffer): string | undefined {
  const name = field(header, 0, 100);
  const prefix = field(header, 257, 6).startsWith('ustar') ? field(header, 345, 155) : '';
  const relative = path.posix.normalize((prefix ? `${prefix}/${name}` : name).replace(/^\/+/, ''));
  if (relative === '.' || relative.startsWith('..') || path.posix.isAbsolute(relative)) return undefined;
  return path.join(root, ...relative.split('/'));
}

/**
 * Unpacks the template into `dataDir` (absent or empty), streaming: the 40MB tar never sits in
 * memory. It is unpacked beside `dataDir` and renamed into place, so an interrupted first start
 * leaves no half-made database behind. Returns false when there is no template file.
 */
export async function unpackPgliteTemplate(dataDir: string, file = PGLITE_TEMPLATE_FILE): Promise<boolean> {
  if (!existsSync(file)) return false;
  const source = createBrotliDecompress();
  // pipe() does not pass a read error on: without this the loop below would wait forever.
  createReadStream(file)
    .on('error', (err) => source.destroy(err))
    .pipe(source);
  const staging = `${dataDir}.unpacking`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true, mode: 0o700 });
  let pending: Buffer = Buffer.alloc(0);
  let out: FileHandle | undefined;
  let data = 0; // bytes of the current member still to come
  let skip = 0; // bytes to drop: padding to the next block, or a member type we do not write
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (data > 0) {
          const n = Math.min(data, pending.length);
          if (n === 0) break;
          if (out) await out.write(pending.subarray(0, n));
          data -= n;
          pending = pending.subarray(n);
          if (data === 0 && out) {
            await out.close();
            out = undefined;
          }
          continue;
        }
        if (skip > 0) {
          const n = Math.min(skip, pending.length);
          if (n === 0) break;
          skip -= n;
          pending = pending.subarray(n);
          continue;
        }
        if (pending.length < BLOCK) break;
        const header = pending.subarray(0, BLOCK);
        pending = pending.subarray(BLOCK);
        if (header.every((b) => b === 0)) continue; // the end-of-archive blocks
        const size = parseInt(field(header, 124, 12).trim() || '0', 8);
        const type = String.fromCharCode(header[156] ?? 0);
        const target = memberPath(staging, header);
        skip = (BLOCK - (size % BLOCK)) % BLOCK;
        if (type === '5' && target) {
          mkdirSync(target, { recursive: true, mode: 0o700 });
        } else if ((type === '0' || type === '\0') && target && path.basename(target) !== 'postmaster.pid') {
          // postmaster.pid is the lock of the instance that made the dump: a new directory has none.
          mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
          out = await open(target, 'w', 0o600);
          if (size === 0) {
            await out.close();
            out = undefined;
          }
        }
        data = size;
      }
    }
    if (out) throw new Error(`${file} ends inside a member`);
  } catch (err) {
    await out?.close();
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  rmSync(dataDir, { recursive: true, force: true }); // empty (the caller checked)
  renameSync(staging, dataDir);
  return true;
}

/** Whether `dir` is missing or has nothing in it (a directory PGlite would run initdb in). */
export function isEmptyDir(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}
