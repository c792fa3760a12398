import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  IMAGE_URL_PREFIX,
  LOGO_URL_PREFIX,
  UPLOAD_MESSAGES,
  uploadFieldsSchema,
  uploadResponseSchema,
  type UploadResponse,
} from '@ledgerpad/shared';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { badRequest, forbidden } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import { requireUser } from '../../plugins/auth';
import { DAY_MS, type Quotas } from '../../platform/quotas';
import { IMAGE_FORMATS, normalizeLogo } from './images';
import { parseUploadForm, uploadedFile } from './multipart';
import { ImageStore, uploadsDir } from './store';

// POST /api/upload (spec 001 §7) and the public image URLs (spec 000 §7). Decisions: docs/uploads.md.

/** A stored logo as a later messenger publisher gets it. */
export interface StoredLogo {
  name: string;
  contentType: string;
  data: Buffer;
}

/**
 * Publishes a stored logo to the messenger and answers its file id (spec's `telegramFileId`).
 * None exists yet: without one every upload answers `telegramFileId: null`.
 */
export interface LogoPublisher {
  publish(logo: StoredLogo): Promise<string | null>;
}

export interface UploadsDeps {
  config: Config;
  /** Where logos are stored (table uploaded_logos): every instance on it serves every logo. */
  db: Db;
  telegram?: LogoPublisher;
  /** Upload bytes per user per day (UPLOAD_BYTES_PER_USER_PER_DAY). */
  quotas: Quotas;
  /**
   * Which of these served logo URLs something refers to (tokens, airdrops, deploys in progress,
   * each asked through its own module): the unused-logo sweep keeps those.
   */
  logosInUse: (urls: string[]) => Promise<Iterable<string>>;
}

/** What the app (and tests) use of the uploads module. */
export interface UploadsApi {
  /** One sweep of unused logos now (`now` lets tests look a day ahead); the names deleted. */
  sweep(now?: number): Promise<string[]>;
  /** The logo store (tests read what was stored). */
  store: ImageStore;
}

const MINUTE = 60_000;
const IMMUTABLE_ROUTES = [`${IMAGE_URL_PREFIX}:name`, `${LOGO_URL_PREFIX}:name`];

/** Uploads are the costliest writes (a decode and an encode each): a tenth of the write limit, 30/min by default. */
const uploadsPerMinute = (config: Pick<Config, 'RATE_LIMIT_WRITE_PER_MIN'>) =>
  Math.max(1, Math.floor(config.RATE_LIMIT_WRITE_PER_MIN / 10));

const isMultipart = (request: FastifyRequest) =>
  /^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '');

export async function registerUploads(app: FastifyInstance, deps: UploadsDeps): Promise<UploadsApi> {
  const store = new ImageStore(deps.db);
  // Logos an earlier version stored on disk move into the database at start (docs/uploads.md).
  const imported = await store.importDir(uploadsDir(deps.config.dataDir));
  if (imported) app.log.info({ imported }, 'logos moved from the data directory into the database');
  const dailyBytes = deps.config.UPLOAD_BYTES_PER_USER_PER_DAY;
  const bytesRule = {
    bucket: 'upload_bytes',
    limit: dailyBytes,
    windowMs: DAY_MS,
    message: `you can upload at most ${formatMb(dailyBytes)} of images a day.`,
  };
  const telegram = deps.telegram;
  if (deps.config.TELEGRAM_BOT_TOKEN && !telegram) {
    app.log.info('logo uploads: no messenger publisher yet, so telegramFileId is null');
  }

  // Its own scope: the multipart parser and the error handler below apply to this route only.
  await app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', (request: FastifyRequest, payload: IncomingMessage) =>
      parseUploadForm(request, payload),
    );
    scope.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      // Refused before the body was read to its end (anonymous, rate-limited, too large): close the
      // connection after answering, or the server would go on reading, and dropping, the rest.
      if (!request.raw.readableEnded) reply.header('connection', 'close');
      throw error; // the app's error handler answers
    });

    scope.post(
      '/api/upload',
      {
        config: {
          access: 'user',
          // Declared as `declared('user', …)` would (plugins/access.ts); the body is a multipart form.
          schemas: {
            summary:
              "Upload a logo: a multipart/form-data body with the image in its `logo` field and `purpose` (deploy, listing, airdrop or admin). The answer is the stored image's address.",
            response: uploadResponseSchema,
          },
          // Replaces the global read and write limits on this route (per user, like them).
          rateLimit: { max: uploadsPerMinute(deps.config), timeWindow: MINUTE },
        },
        // Anonymous uploads are refused before their body is read (the access guard runs later).
        onRequest: requireUser,
      },
      async (request): Promise<UploadResponse> => {
        if (!isMultipart(request)) throw badRequest(UPLOAD_MESSAGES.notMultipart);
        const { purpose } = parseInput(uploadFieldsSchema, request.body);
        if (purpose === 'admin' && !(await request.isAdmin())) throw forbidden('Admins only');
        const upload = uploadedFile(request);
        if (!upload) throw badRequest(UPLOAD_MESSAGES.missing);

        // Counted before the decode: what a user sends is what costs (decode, encode, disk).
        const quotaId = await deps.quotas.take(bytesRule, String(request.user!.id), upload.data.length);
        let image: Awaited<ReturnType<typeof normalizeLogo>>;
        let name: string;
        try {
          image = await normalizeLogo(upload.data, purpose);
          name = await store.put(image.data, image.format);
        } catch (err) {
          // A refused image (wrong type, too large) stores nothing: it does not count.
          await deps.quotas.refund(quotaId).catch(() => undefined);
          throw err;
        }
        request.log.info(
          { upload: name, purpose, bytesIn: upload.data.length, bytesOut: image.data.length },
          'logo stored',
        );
        let telegramFileId: string | null = null;
        if (telegram) {
          const logo = {
            name,
            contentType: IMAGE_FORMATS[image.format].contentType,
            data: image.data,
          };
          // The served URL is the upload's result; a messenger outage must not fail it.
          telegramFileId = await telegram.publish(logo).catch((err: unknown) => {
            request.log.warn({ err, upload: name }, 'logo not published to the messenger');
            return null;
          });
        }
        return { servedUrl: `${LOGO_URL_PREFIX}${name}`, telegramFileId };
      },
    );
  });

  // Public, outside /api: the same stored files at both addresses the specs use.
  for (const url of IMMUTABLE_ROUTES) {
    app.get<{ Params: { name: string } }>(url, { config: { access: 'public' } }, (request, reply) =>
      store.serve(request.params.name, request, reply),
    );
  }

  // The unused-logo sweep: an owned loop, stopped (and awaited) when the app closes.
  const ttlMs = deps.config.UNUSED_LOGO_TTL_HOURS * 3600_000;
  let running: Promise<unknown> = Promise.resolve();
  const sweep = async (now = Date.now()) => {
    const deleted = await store.sweep(now, ttlMs, deps.logosInUse);
    if (deleted.length) app.log.info({ deleted: deleted.length }, 'unused logos deleted');
    return deleted;
  };
  let timer: NodeJS.Timeout | undefined;
  if (deps.config.LOGO_SWEEP_MS > 0) {
    app.addHook('onReady', async () => {
      timer = setInterval(() => {
        running = sweep().catch((err: unknown) =>
          app.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'logo sweep failed'),
        );
      }, deps.config.LOGO_SWEEP_MS);
      timer.unref();
    });
  }
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await running;
  });
  return { sweep, store };
}

const formatMb = (bytes: number) => `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
