import { createHash } from 'node:crypto';
import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IMAGE_URL_PREFIX, LOGO_URL_PREFIX, STORED_IMAGE_NAME } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { IMAGE_FORMATS, type ImageFormat } from './images';
import { uploadedLogos } from './schema';

// Stored images are named by the SHA-256 of their bytes: a name never changes meaning, so it can be
// cached forever, the same image uploaded twice is stored once, and a name carries nothing a
// client chose (the only names served are 64 hex digits and one of three extensions).
// They live in the database (table uploaded_logos), so every instance serves every logo
// (docs/uploads.md "Several instances").

/** Where logos were stored on disk before they moved into the database (imported at start). */
export const uploadsDir = (dataDir: string) => path.join(dataDir, 'uploads');

const CONTENT_TYPES: Record<string, string> = Object.fromEntries(
  Object.values(IMAGE_FORMATS).map((f) => [f.ext, f.contentType]),
);

const contentTypeOf = (name: string) => CONTENT_TYPES[path.extname(name).slice(1)]!;

/** The stored name behind `/cdn/logos/<name>` or `/images/<name>`, or undefined for any other URL. */
export function storedImageName(servedUrl: string): string | undefined {
  for (const prefix of [LOGO_URL_PREFIX, IMAGE_URL_PREFIX]) {
    if (!servedUrl.startsWith(prefix)) continue;
    const name = servedUrl.slice(prefix.length);
    return STORED_IMAGE_NAME.test(name) ? name : undefined;
  }
  return undefined;
}

export class ImageStore {
  constructor(private readonly db: Db) {}

  /**
   * Stores the bytes under their content name (once) and returns the name. Uploaded again, an
   * image is young again: the unused-logo sweep gives it its full day once more.
   */
  async put(data: Buffer, format: ImageFormat, now = new Date()): Promise<string> {
    const name = `${createHash('sha256').update(data).digest('hex')}.${IMAGE_FORMATS[format].ext}`;
    await this.db
      .insert(uploadedLogos)
      .values({
        name,
        contentType: IMAGE_FORMATS[format].contentType,
        bytes: data,
        size: data.length,
        createdAt: now,
        lastUsedAt: now,
      })
      // Two instances storing one image at once both succeed: the bytes are the same by the name.
      .onConflictDoUpdate({ target: uploadedLogos.name, set: { lastUsedAt: now } });
    return name;
  }

  /** True when `name` is stored. */
  async has(name: string): Promise<boolean> {
    if (!STORED_IMAGE_NAME.test(name)) return false;
    const [row] = await this.db
      .select({ name: uploadedLogos.name })
      .from(uploadedLogos)
      .where(eq(uploadedLogos.name, name));
    return row !== undefined;
  }

  /** Bytes stored in all (the abuse test's bound, operators' figures). */
  async totalBytes(): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<string>`coalesce(sum(${uploadedLogos.size}), 0)` })
      .from(uploadedLogos);
    return Number(row?.n ?? 0);
  }

  /**
   * Deletes stored images whose last upload is older than `olderThanMs` and that nothing refers
   * to: `inUse` answers which of the candidate URLs (both served forms of each name) are referred
   * to. Returns the names deleted. An image uploaded again between the check and the delete is
   * kept (the delete repeats the age condition).
   */
  async sweep(
    now: number,
    olderThanMs: number,
    inUse: (urls: string[]) => Promise<Iterable<string>>,
  ): Promise<string[]> {
    const cutoff = new Date(now - olderThanMs);
    const deleted: string[] = [];
    let after = '';
    // In batches of 200 by name, so one query never carries thousands of parameters.
    for (;;) {
      const batch = (
        await this.db
          .select({ name: uploadedLogos.name })
          .from(uploadedLogos)
          .where(and(lt(uploadedLogos.lastUsedAt, cutoff), gt(uploadedLogos.name, after)))
          .orderBy(asc(uploadedLogos.name))
          .limit(200)
      ).map((r) => r.name);
      if (batch.length === 0) break;
      after = batch[batch.length - 1]!;
      const used = new Set(
        await inUse(batch.flatMap((n) => [`${LOGO_URL_PREFIX}${n}`, `${IMAGE_URL_PREFIX}${n}`])),
      );
      const unused = batch.filter(
        (n) => !used.has(`${LOGO_URL_PREFIX}${n}`) && !used.has(`${IMAGE_URL_PREFIX}${n}`),
      );
      if (unused.length === 0) continue;
      const gone = await this.db
        .delete(uploadedLogos)
        .where(and(inArray(uploadedLogos.name, unused), lt(uploadedLogos.lastUsedAt, cutoff)))
        .returning({ name: uploadedLogos.name });
      deleted.push(...gone.map((r) => r.name));
    }
    return deleted.sort();
  }

  /**
   * Moves logos stored on disk by earlier versions (`DATA_DIR/uploads/<hash>.<ext>`) into the
   * database, keeping their age (the file time), then deletes each file once its row is in: an old
   * data directory keeps its logos, and the directory stops growing. A file whose bytes do not hash
   * to its name is not ours to serve and is left alone; temporary files a crash left are removed.
   * Returns how many were imported.
   */
  async importDir(dir: string): Promise<number> {
    let imported = 0;
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const file = path.join(dir, name);
      if (name.startsWith('.') && name.endsWith('.tmp')) {
        await unlink(file).catch(() => undefined);
        continue;
      }
      if (!STORED_IMAGE_NAME.test(name)) continue;
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      const data = await readFile(file);
      if (createHash('sha256').update(data).digest('hex') !== name.slice(0, 64)) continue;
      const at = new Date(info.mtimeMs);
      await this.db
        .insert(uploadedLogos)
        .values({
          name,
          contentType: contentTypeOf(name),
          bytes: data,
          size: data.length,
          createdAt: at,
          lastUsedAt: at,
        })
        .onConflictDoNothing();
      await unlink(file).catch(() => undefined);
      imported++;
    }
    return imported;
  }

  /** The stored image, or undefined for a name not stored (no other name is ever looked up). */
  async get(name: string): Promise<{ contentType: string; data: Buffer } | undefined> {
    if (!STORED_IMAGE_NAME.test(name)) return undefined;
    const [row] = await this.db
      .select({ contentType: uploadedLogos.contentType, bytes: uploadedLogos.bytes })
      .from(uploadedLogos)
      .where(eq(uploadedLogos.name, name));
    return row ? { contentType: row.contentType, data: row.bytes } : undefined;
  }

  /** GET handler body: the image with immutable caching, else the app's 404. */
  async serve(name: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const etag = `"${name.slice(0, 64)}"`;
    // A revalidation needs only to know the name is still stored, not its bytes.
    const revalidating = request.headers['if-none-match'] === etag;
    const image = revalidating ? ((await this.has(name)) ? null : undefined) : await this.get(name);
    if (image === undefined) {
      reply.callNotFound();
      return reply;
    }
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      // Opened on its own, an image is a document: it may run nothing and load nothing.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .header('etag', etag);
    if (image === null) return reply.code(304).send();
    return reply.type(contentTypeOf(name)).header('content-length', image.data.length).send(image.data);
  }
}
