import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES, uploadResponseSchema } from '@ledgerpad/shared';
import type { LogoPublisher } from '../../src/modules/uploads/routes';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/test-app';
import { craftedPng, multipart, noisePng, PNG_SIGNATURE, solid, streamedUpload, type Part } from './helpers';

// POST /api/upload and the image URLs, through real HTTP handling with real multipart bodies and
// real images. Every refusal is checked for its status and exact message.

let t: TestApp;
let dataDir: string;
let alice: SignedIn;
let owner: SignedIn;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'ledgerpad-uploads-'));
  t = await createTestApp({ ledger: 'none', env: { DATA_DIR: dataDir } });
  alice = await t.signIn('alice');
  owner = await t.signInOwner();
});
afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

interface UploadOptions {
  purpose?: string;
  /** How the CSRF token travels; default the header. */
  csrf?: 'header' | 'field' | 'none' | 'wrong';
  /** Send `purpose` after the file instead of before it. */
  purposeAfter?: boolean;
  extra?: Part[];
  app?: TestApp;
}

const logo = (data: Buffer, filename = 'logo.png', type = 'image/png'): Part => ({
  name: 'logo',
  data,
  filename,
  type,
});

async function upload(who: SignedIn | null, file: Part | null, opts: UploadOptions = {}) {
  const csrf = opts.csrf ?? 'header';
  const fields: Part[] = [];
  if (who && csrf === 'field') fields.push({ name: 'csrf_token', value: who.csrfToken });
  const purpose: Part[] = opts.purpose !== undefined ? [{ name: 'purpose', value: opts.purpose }] : [];
  const parts = opts.purposeAfter
    ? [...fields, ...(file ? [file] : []), ...purpose, ...(opts.extra ?? [])]
    : [...fields, ...purpose, ...(file ? [file] : []), ...(opts.extra ?? [])];
  const { payload, contentType } = await multipart(parts);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (who) headers.cookie = who.cookie;
  if (who && csrf === 'header') headers['x-csrf-token'] = who.csrfToken;
  if (who && csrf === 'wrong') headers['x-csrf-token'] = 'f'.repeat(64);
  return (opts.app ?? t).app.inject({ method: 'POST', url: '/api/upload', headers, payload });
}

const nameOf = (servedUrl: string) => servedUrl.slice('/cdn/logos/'.length);
/** The names stored, in the database (table uploaded_logos; docs/uploads.md). */
const storedFiles = async (app: TestApp = t) =>
  (await app.database.sql.query<{ name: string }>('select name from uploaded_logos order by name')).map(
    (r) => r.name,
  );
/** The bytes stored under a name. */
const storedBytes = async (name: string, app: TestApp = t) => {
  const [row] = await app.database.sql.query<{ bytes: Uint8Array }>(
    'select bytes from uploaded_logos where name = $1',
    [name],
  );
  return Buffer.from(row!.bytes);
};

describe('POST /api/upload: accepted images', () => {
  it.each([
    ['png', 'image/png', 'logo.png'],
    ['jpeg', 'image/jpeg', 'logo.jpg'],
    ['webp', 'image/webp', 'logo.webp'],
  ] as const)(
    'stores a %s re-encoded under its content hash and serves it at both URLs',
    async (format, type, filename) => {
      const input = await solid(200, 180, format);
      const res = await upload(alice, logo(input, filename, type), { purpose: 'deploy' });
      expect(res.statusCode, res.body).toBe(200);
      const body = uploadResponseSchema.parse(res.json());
      expect(body.telegramFileId).toBeNull();
      const ext = format === 'jpeg' ? 'jpg' : format;
      expect(body.servedUrl).toMatch(new RegExp(`^/cdn/logos/[a-f0-9]{64}\\.${ext}$`));

      const name = nameOf(body.servedUrl);
      const stored = await storedBytes(name);
      expect(`${createHash('sha256').update(stored).digest('hex')}.${ext}`).toBe(name);
      const meta = await sharp(stored).metadata();
      expect(meta.format).toBe(format);
      expect([meta.width, meta.height]).toEqual([200, 180]);

      for (const url of [body.servedUrl, `/images/${name}`]) {
        const served = await t.app.inject({ url });
        expect(served.statusCode, url).toBe(200);
        expect(served.headers['content-type']).toBe(type);
        expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(served.headers['x-content-type-options']).toBe('nosniff');
        expect(served.headers['content-length']).toBe(String(stored.length));
        expect(served.rawPayload.equals(stored)).toBe(true);
        // Revalidation by ETag answers 304 without the bytes.
        const again = await t.app.inject({
          url,
          headers: { 'if-none-match': served.headers.etag as string },
        });
        expect(again.statusCode).toBe(304);
      }
    },
  );

  it('strips EXIF and GPS metadata and turns the image upright', async () => {
    const withExif = await sharp({ create: { width: 100, height: 120, channels: 3, background: '#0a0' } })
      .jpeg()
      .withMetadata({
        orientation: 6,
        exif: {
          IFD0: { Make: 'SpyCam', Copyright: 'secret-owner' },
          IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2959/100' },
        },
      })
      .toBuffer();
    const before = await sharp(withExif).metadata();
    expect(before.exif).toBeDefined();
    expect(before.orientation).toBe(6);

    const res = await upload(alice, logo(withExif, 'photo.jpg', 'image/jpeg'));
    expect(res.statusCode, res.body).toBe(200);
    const stored = await storedBytes(nameOf(res.json().servedUrl));
    const after = await sharp(stored).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect([after.width, after.height]).toEqual([120, 100]); // rotated by orientation 6
    expect(stored.includes('SpyCam')).toBe(false);
    expect(stored.includes('secret-owner')).toBe(false);
  });

  it('scales large logos down to 512 px and never enlarges small ones', async () => {
    const big = await upload(alice, logo(await solid(2000, 1800, 'png')), { purpose: 'listing' });
    expect(big.statusCode, big.body).toBe(200);
    const bigMeta = await sharp(await storedBytes(nameOf(big.json().servedUrl))).metadata();
    expect([bigMeta.width, bigMeta.height]).toEqual([512, 461]);

    const small = await upload(alice, logo(await solid(48, 48, 'png', '#123456')));
    const smallMeta = await sharp(await storedBytes(nameOf(small.json().servedUrl))).metadata();
    expect([smallMeta.width, smallMeta.height]).toEqual([48, 48]);
  });

  it('gives the same image the same URL and stores it once', async () => {
    const image = await solid(64, 64, 'png', '#abcdef');
    const first = await upload(alice, logo(image));
    const count = (await storedFiles()).length;
    const second = await upload(owner, logo(image, 'other-name.png'), { purpose: 'listing' });
    expect(first.statusCode).toBe(200);
    expect(second.json().servedUrl).toBe(first.json().servedUrl);
    expect((await storedFiles()).length).toBe(count);
  });

  it('accepts aspect ratios 0.8 and 1.2 exactly, and defaults the purpose to deploy', async () => {
    expect((await upload(alice, logo(await solid(120, 100, 'png')))).statusCode).toBe(200);
    expect((await upload(alice, logo(await solid(100, 125, 'png')))).statusCode).toBe(200);
  });
});

describe('POST /api/upload: who may upload', () => {
  it('refuses anonymous callers with 401', async () => {
    const res = await upload(null, logo(await solid(50, 50, 'png')));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'unauthorized', message: 'Sign in required' });
  });

  it('takes the CSRF token as the csrf_token field as well as the header', async () => {
    const res = await upload(alice, logo(await solid(52, 52, 'png')), { csrf: 'field', purpose: 'deploy' });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses a missing or wrong CSRF token with 403', async () => {
    for (const csrf of ['none', 'wrong'] as const) {
      const res = await upload(alice, logo(await solid(53, 53, 'png')), { csrf });
      expect(res.statusCode, csrf).toBe(403);
      expect(res.json()).toEqual({ error: 'csrf', message: 'Invalid or missing CSRF token' });
    }
  });

  it('lets only admins upload for the admin form', async () => {
    const image = await solid(60, 60, 'png');
    const refused = await upload(alice, logo(image), { purpose: 'admin' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'forbidden', message: 'Admins only' });
    const allowed = await upload(owner, logo(image), { purpose: 'admin' });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });
});

describe('POST /api/upload: refused files', () => {
  const expectRefusal = (
    res: { statusCode: number; json: () => unknown },
    status: number,
    message: string,
  ) => {
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ message });
  };

  it('decides the type by the bytes: other bytes named .png and sent as image/png are refused', async () => {
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    expectRefusal(await upload(alice, logo(html, 'logo.png', 'image/png')), 400, UPLOAD_MESSAGES.type);
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } })
      .gif()
      .toBuffer();
    expectRefusal(await upload(alice, logo(gif, 'logo.webp', 'image/webp')), 400, UPLOAD_MESSAGES.type);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expectRefusal(await upload(alice, logo(svg, 'logo.jpg', 'image/jpeg')), 400, UPLOAD_MESSAGES.type);
    // RIFF but not WEBP (a WAV header).
    const wav = Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.alloc(4),
      Buffer.from('WAVEfmt '),
      Buffer.alloc(32),
    ]);
    expectRefusal(await upload(alice, logo(wav, 'logo.webp', 'image/webp')), 400, UPLOAD_MESSAGES.type);
  });

  it('limits the size by purpose: 2 MB is fine for a listing, too large for a deploy or the admin form', async () => {
    const twoMb = await noisePng(840, 840);
    expect(twoMb.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(twoMb.length).toBeLessThan(5 * 1024 * 1024);
    const listing = await upload(alice, logo(twoMb), { purpose: 'listing' });
    expect(listing.statusCode, listing.body).toBe(200);
    expect((await upload(alice, logo(twoMb), { purpose: 'airdrop' })).statusCode).toBe(200);
    expectRefusal(
      await upload(alice, logo(twoMb), { purpose: 'deploy' }),
      413,
      'Image size must be less than 1MB.',
    );
    expectRefusal(await upload(alice, logo(twoMb)), 413, 'Image size must be less than 1MB.');
    expectRefusal(await upload(owner, logo(twoMb), { purpose: 'admin' }), 413, 'Max size 1MB.');
    // A purpose sent after the file is applied once the form is read.
    expectRefusal(
      await upload(alice, logo(twoMb), { purpose: 'deploy', purposeAfter: true }),
      413,
      'Image size must be less than 1MB.',
    );
  });

  it('refuses more than 5 MB for a listing with its message', async () => {
    const sixMb = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(6 * 1024 * 1024)]);
    expectRefusal(
      await upload(alice, logo(sixMb), { purpose: 'listing' }),
      413,
      'Image size must be less than 5MB.',
    );
  });

  it('stops reading a huge upload at the limit instead of buffering it', async () => {
    for (const [purpose, message, limit] of [
      ['deploy', 'Image size must be less than 1MB.', 1024 * 1024],
      ['listing', 'Image size must be less than 5MB.', 5 * 1024 * 1024],
    ] as const) {
      const body = streamedUpload({ csrf_token: alice.csrfToken, purpose }, 500 * 1024 * 1024);
      const started = Date.now();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/upload',
        headers: { cookie: alice.cookie, 'content-type': body.contentType },
        payload: body.stream,
      });
      expectRefusal(res, 413, message);
      expect(res.headers.connection).toBe('close');
      // What was pulled from the 500 MB body: the limit plus a little stream buffering.
      expect(body.read()).toBeGreaterThan(limit);
      expect(body.read()).toBeLessThan(limit + 1024 * 1024);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });

  it('refuses an anonymous upload before reading its body', async () => {
    const body = streamedUpload({ purpose: 'listing' }, 500 * 1024 * 1024);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { 'content-type': body.contentType },
      payload: body.stream,
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers.connection).toBe('close');
    expect(body.read()).toBeLessThan(1024 * 1024);
  });

  it('refuses images that are not square or near-square, with each form’s message', async () => {
    const wide = await solid(300, 100, 'png');
    expectRefusal(
      await upload(alice, logo(wide), { purpose: 'deploy' }),
      400,
      'Image must be square or near-square.',
    );
    expectRefusal(
      await upload(alice, logo(wide), { purpose: 'listing' }),
      400,
      'Image must be square or near-square.',
    );
    expectRefusal(await upload(owner, logo(wide), { purpose: 'admin' }), 400, 'Image must be square-ish.');
    expectRefusal(await upload(alice, logo(await solid(121, 100, 'png'))), 400, UPLOAD_MESSAGES.aspect);
    expectRefusal(await upload(alice, logo(await solid(100, 126, 'jpeg'))), 400, UPLOAD_MESSAGES.aspect);
  });

  it('refuses an empty file and a form without a file', async () => {
    expectRefusal(await upload(alice, logo(Buffer.alloc(0))), 400, UPLOAD_MESSAGES.empty);
    expectRefusal(await upload(alice, null, { purpose: 'deploy' }), 400, 'Please upload a logo.');
  });

  it('refuses a PNG declaring 100000×100000 pixels quickly, without decoding it', async () => {
    const bomb = craftedPng(100_000, 100_000);
    expect(bomb.length).toBeLessThan(200);
    const started = Date.now();
    expectRefusal(await upload(alice, logo(bomb), { purpose: 'listing' }), 400, UPLOAD_MESSAGES.dimensions);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses a complete, decodable PNG larger than 4096 px (a real decompression bomb)', async () => {
    const bomb = craftedPng(8000, 8000, { fullData: true }); // 64 megapixels in a few kilobytes
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(8000);
    const started = Date.now();
    expectRefusal(await upload(alice, logo(bomb)), 400, UPLOAD_MESSAGES.dimensions);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers 400, never 500, for broken images behind valid magic bytes', async () => {
    const garbage = Buffer.concat([PNG_SIGNATURE, Buffer.from('this is not a png at all, just words')]);
    expectRefusal(await upload(alice, logo(garbage)), 400, UPLOAD_MESSAGES.unreadable);
    const png = await solid(200, 200, 'png');
    expectRefusal(
      await upload(alice, logo(png.subarray(0, png.length - 40))),
      400,
      UPLOAD_MESSAGES.unreadable,
    );
    const jpeg = await solid(200, 200, 'jpeg');
    expectRefusal(
      await upload(alice, logo(jpeg.subarray(0, 200), 'x.jpg', 'image/jpeg')),
      400,
      UPLOAD_MESSAGES.unreadable,
    );
    const webp = Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.alloc(4),
      Buffer.from('WEBPVP8 '),
      Buffer.alloc(40, 1),
    ]);
    expectRefusal(await upload(alice, logo(webp, 'x.webp', 'image/webp')), 400, UPLOAD_MESSAGES.unreadable);
  });

  it('refuses malformed forms with a 4xx', async () => {
    const image = await solid(40, 40, 'png');
    expectRefusal(await upload(alice, logo(image), { purpose: 'banner' }), 400, UPLOAD_MESSAGES.purpose);
    expectRefusal(
      await upload(alice, logo(image), { extra: [logo(image, 'second.png')] }),
      400,
      UPLOAD_MESSAGES.oneFile,
    );
    expectRefusal(
      await upload(alice, { name: 'avatar', data: image, filename: 'a.png', type: 'image/png' }),
      400,
      UPLOAD_MESSAGES.oneFile,
    );
    // JSON instead of a form.
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: alice.headers,
      payload: {},
    });
    expectRefusal(json, 400, UPLOAD_MESSAGES.notMultipart);
    // A multipart type without a boundary, and a body that is not multipart at all.
    for (const [contentType, payload] of [
      ['multipart/form-data', 'x'],
      ['multipart/form-data; boundary=abc', 'no boundary anywhere in here'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/upload',
        headers: { ...alice.headers, 'content-type': contentType! },
        payload,
      });
      expect(res.statusCode, contentType).toBe(400);
    }
  });
});

describe('the module scope', () => {
  it('leaves other routes refusing multipart bodies', async () => {
    const { payload, contentType } = await multipart([{ name: 'name', value: 'x' }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/wallets',
      headers: { ...alice.headers, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode).toBe(415);
  });
});

describe('GET /images/{name} and /cdn/logos/{file}', () => {
  it('answers 404 for names that are not stored content hashes, traversal included', async () => {
    const stored = (await storedFiles())[0]!;
    const urls = [
      '/images/..%2f..%2fetc%2fpasswd',
      '/images/..%2F..%2Fetc%2Fpasswd',
      '/cdn/logos/..%2f..%2fetc%2fpasswd',
      '/images/%2e%2e%2fuploads',
      `/images/${stored.toUpperCase()}`,
      `/images/${stored.replace(/\.\w+$/, '.svg')}`,
      `/images/${stored}%00.png`,
      `/images/.${stored}`,
      `/images/${'0'.repeat(64)}.png`,
      '/images/',
      '/cdn/logos/',
    ];
    for (const url of urls) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('root:');
    }
    expect((await t.app.inject({ url: `/images/${stored}` })).statusCode).toBe(200);
  });

  it('needs no session, and answers HEAD with the headers only', async () => {
    const stored = (await storedFiles())[0]!;
    const res = await t.app.inject({ url: `/cdn/logos/${stored}` });
    expect(res.statusCode).toBe(200);
    const head = await t.app.inject({ method: 'HEAD', url: `/images/${stored}` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(head.body).toBe('');
  });
});

describe('uploads per user per minute, and the messenger hook', () => {
  let limited: TestApp;
  let dir: string;
  const published: string[] = [];
  let failPublish = false;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'ledgerpad-uploads-limit-'));
    // A write limit of 30 gives 3 uploads a minute per user.
    const telegram: LogoPublisher = {
      publish: async (stored) => {
        if (failPublish) throw new Error('messenger down');
        published.push(stored.name);
        return `tg-${stored.name.slice(0, 8)}`;
      },
    };
    limited = await createTestApp({
      ledger: 'none',
      env: { DATA_DIR: dir, RATE_LIMIT_WRITE_PER_MIN: '30' },
      logoPublisher: telegram,
    });
  });
  afterAll(async () => {
    await limited?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('passes stored logos to a messenger publisher, and a failing one does not fail the upload', async () => {
    const carol = await limited.signIn('carol');
    const res = await upload(carol, logo(await solid(70, 70, 'png')), { app: limited });
    expect(res.statusCode, res.body).toBe(200);
    const name = nameOf(res.json().servedUrl);
    expect(published).toEqual([name]);
    expect(res.json().telegramFileId).toBe(`tg-${name.slice(0, 8)}`);

    failPublish = true;
    const failed = await upload(carol, logo(await solid(71, 71, 'png')), { app: limited });
    expect(failed.statusCode).toBe(200);
    expect(failed.json().telegramFileId).toBeNull();
  });

  it('limits each user to a tenth of the write limit per minute (429 with Retry-After)', async () => {
    const dave = await limited.signIn('dave');
    const image = logo(await solid(72, 72, 'png'));
    for (let i = 0; i < 3; i++) expect((await upload(dave, image, { app: limited })).statusCode).toBe(200);
    const refused = await upload(dave, image, { app: limited });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too Many Requests: retry in \d+ s$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another user is not affected.
    const erin = await limited.signIn('erin');
    expect((await upload(erin, image, { app: limited })).statusCode).toBe(200);
  });
});

describe('several instances on one database (no shared volume)', () => {
  it('serves a logo uploaded through one instance from another with its own data directory', async () => {
    const otherDir = await mkdtemp(path.join(os.tmpdir(), 'ledgerpad-uploads-b-'));
    const other = await createTestApp({ ledger: 'none', database: t.database, env: { DATA_DIR: otherDir } });
    try {
      const res = await upload(alice, logo(await solid(90, 90, 'png')));
      expect(res.statusCode, res.body).toBe(200);
      const url = res.json().servedUrl as string;
      const here = await t.app.inject(url);
      const there = await other.app.inject(url);
      expect(there.statusCode).toBe(200);
      expect(there.rawPayload.equals(here.rawPayload)).toBe(true);
      expect(there.headers['content-type']).toBe('image/png');
      expect(there.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(there.headers.etag).toBe(`"${nameOf(url).slice(0, 64)}"`);
      const revalidated = await other.app.inject({ url, headers: { 'if-none-match': there.headers.etag! } });
      expect(revalidated.statusCode).toBe(304);
      // The other instance's sweep sees it too, and keeps it while it is young.
      expect(await other.app.uploads.sweep()).not.toContain(nameOf(url));
      expect(await readdir(otherDir)).not.toContain(nameOf(url));
    } finally {
      await other.close();
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('moves logos an earlier version stored on disk into the database at start, keeping their age', async () => {
    const oldDir = await mkdtemp(path.join(os.tmpdir(), 'ledgerpad-uploads-old-'));
    const files = path.join(oldDir, 'uploads');
    await mkdir(files, { recursive: true });
    const image = await solid(91, 91, 'png');
    const name = `${createHash('sha256').update(image).digest('hex')}.png`;
    await writeFile(path.join(files, name), image);
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    await utimes(path.join(files, name), twoDaysAgo, twoDaysAgo);
    // Not ours: bytes that do not hash to their name stay where they are, never served.
    const forged = `${'b'.repeat(64)}.png`;
    await writeFile(path.join(files, forged), image);
    await writeFile(path.join(files, `.${name}.abc.tmp`), image);
    const restarted = await createTestApp({ ledger: 'none', env: { DATA_DIR: oldDir } });
    try {
      const res = await restarted.app.inject(`/cdn/logos/${name}`);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(image)).toBe(true);
      expect((await restarted.app.inject(`/images/${forged}`)).statusCode).toBe(404);
      expect((await readdir(files)).sort()).toEqual([forged]);
      const [row] = await restarted.database.sql.query<{ age_h: number }>(
        `select extract(epoch from now() - last_used_at) / 3600 as age_h from uploaded_logos where name = $1`,
        [name],
      );
      expect(Number(row!.age_h)).toBeGreaterThan(47);
      // Two days old and referred to by nothing: the next sweep deletes it.
      expect(await restarted.app.uploads.sweep()).toEqual([name]);
      expect((await restarted.app.inject(`/cdn/logos/${name}`)).statusCode).toBe(404);
    } finally {
      await restarted.close();
      await rm(oldDir, { recursive: true, force: true });
    }
  });
});
