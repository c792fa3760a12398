import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IMAGE_URL_PREFIX, LOGO_URL_PREFIX, STORED_IMAGE_NAME } from '@ledgerpad/shared';
import { IMAGE_FORMATS, type ImageFormat } from './images';

// Stored images are named by the SHA-256 of their bytes: a name never changes meaning, so it can be
// cached forever, the same image uploaded twice is stored once, and a name carries nothing a
// client chose (the only names served are 64 hex digits and one of three extensions).

export const uploadsDir = (dataDir: string) => path.join(dataDir, 'uploads');

const CONTENT_TYPES: Record<string, string> = Object.fromEntries(
  Object.values(IMAGE_FORMATS).map((f) => [f.ext, f.contentType]),
);

const exists = (file: string) =>
  stat(file).then(
    (s) => s.isFile(),
    () => false,
  );

export class ImageStore {
  constructor(readonly dir: string) {}

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /** Stores the bytes under their content name (once) and returns the name. */
  async put(data: Buffer, format: ImageFormat): Promise<string> {
    const name = `${createHash('sha256').update(data).digest('hex')}.${IMAGE_FORMATS[format].ext}`;
    const target = path.join(this.dir, name);
    if (await exists(target)) {
      // Uploaded again: young again, so the unused-logo sweep gives it its full day once more.
      const now = new Date();
      await utimes(target, now, now).catch(() => undefined);
      return name;
    }
    // Written whole to a temporary name, then renamed into place: a reader never sees half a file,
    // and two concurrent uploads of one image both succeed (a rename over identical bytes).
    const temp = path.join(this.dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temp, data, { mode: 0o644 });
      await rename(temp, target);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
    return name;
  }

  /**
   * Deletes stored images older than `olderThanMs` (by their last upload) that nothing refers to:
   * `inUse` answers which of the candidate URLs (both served forms of each name) are referred to.
   * Also removes temporary files a crash left behind. Returns the names deleted.
   */
  async sweep(
    now: number,
    olderThanMs: number,
    inUse: (urls: string[]) => Promise<Iterable<string>>,
  ): Promise<string[]> {
    const old: string[] = [];
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      const file = path.join(this.dir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile() || now - info.mtimeMs < olderThanMs) continue;
      if (name.startsWith('.') && name.endsWith('.tmp')) {
        await unlink(file).catch(() => undefined);
        continue;
      }
      if (STORED_IMAGE_NAME.test(name)) old.push(name);
    }
    const deleted: string[] = [];
    // In batches, so one query never carries thousands of parameters.
    for (let i = 0; i < old.length; i += 200) {
      const batch = old.slice(i, i + 200);
      const used = new Set(
        await inUse(batch.flatMap((n) => [`${LOGO_URL_PREFIX}${n}`, `${IMAGE_URL_PREFIX}${n}`])),
      );
      for (const name of batch) {
        if (used.has(`${LOGO_URL_PREFIX}${name}`) || used.has(`${IMAGE_URL_PREFIX}${name}`)) continue;
        await unlink(path.join(this.dir, name)).catch(() => undefined);
        deleted.push(name);
      }
    }
    return deleted;
  }

  /** The file of a stored name, or undefined for any other name (no path ever leaves the dir). */
  pathOf(name: string): string | undefined {
    return STORED_IMAGE_NAME.test(name) ? path.join(this.dir, name) : undefined;
  }

  /** GET handler body: the image with immutable caching, else the app's 404. */
  async serve(name: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const file = this.pathOf(name);
    const size = file
      ? await stat(file).then(
          (s) => (s.isFile() ? s.size : undefined),
          () => undefined,
        )
      : undefined;
    if (!file || size === undefined) {
      reply.callNotFound();
      return reply;
    }
    const etag = `"${name.slice(0, 64)}"`;
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      // Opened on its own, an image is a document: it may run nothing and load nothing.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply
      .type(CONTENT_TYPES[path.extname(name).slice(1)]!)
      .header('content-length', size)
      .send(createReadStream(file));
  }
}
