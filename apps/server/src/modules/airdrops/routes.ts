import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AIRDROP_MESSAGES,
  AIRDROPS_PAGE,
  parseId,
  type Airdrop,
  type AirdropAllocation,
  type ClaimAirdropResult,
  type IntentRequired,
  claimAirdropSchema,
  createAirdropSchema,
  airdropAllocationSchema,
  claimAirdropResultSchema,
  createAirdropResultSchema,
  intentRequiredSchema,
} from '@ledgerpad/shared';
import { z } from 'zod';
import { notFound } from '../../lib/errors';
import { pageOf, sendPageHeaders } from '../../lib/paging';
import type { Platform } from '../../platform';
import type { WalletsApi } from '../wallets';
import { isStoredUpload } from '../uploads';
import { registerAirdropJobs } from './jobs';
import { AirdropPayer } from './payer';
import { AIRDROP_LINE_INTENT, AirdropService, type AirdropsDeps } from './service';
import { AIRDROP_CREATE_INTENT, SelfCustodyCreation } from './self-custody-create';
import { parseInput } from '../../lib/validation';
import { idempotencyKey } from '../../plugins/edge';
import { declared, documented } from '../../plugins/access';

declare module 'fastify' {
  interface FastifyInstance {
    /** The airdrops module (tests run its expiry sweep with a later clock). */
    airdrops: AirdropService;
  }
}

/** How often the owned loop looks for airdrops to end. */
const AIRDROP_SWEEP_MS = 10_000;

/**
 * Airdrops (spec 001 §2, §4, §6 "Airdrops and burn"): GET /api/airdrops (public), POST /api/airdrops,
 * POST /api/airdrops/{id}/claim and GET /api/airdrops/allocations/{walletId}/{tokenCode}/{issuer}
 * (signed in), the payer's loop that pays reserved claims, and the owned loop that ends airdrops
 * past their deadline or fully claimed.
 */
export function registerAirdrops(
  app: FastifyInstance,
  deps: {
    platform: Platform;
    wallets: WalletsApi;
    sweepMs?: number;
    /** The identity rules every door applies (the tokens module's `airdropRefusal`). */
    identity?: AirdropsDeps['identity'];
  },
): AirdropService {
  const { platform } = deps;
  const db = platform.database.db;
  const submissions = platform.submissions;
  let payer: AirdropPayer | undefined;
  if (submissions) {
    registerAirdropJobs({
      db,
      keyring: platform.keyring,
      jobs: platform.jobs,
      submissions,
      wallets: deps.wallets,
    });
    payer = new AirdropPayer({
      db,
      submissions,
      wallets: deps.wallets,
      log: app.log,
      // A claim is work as a job is: a dead instance's claims are taken over after the same lease.
      leaseMs: platform.config.JOB_LEASE_MS,
    });
  }
  // A creation from a self-custody source: one intent, then the same job (docs/self-custody.md).
  const selfCustody = platform.intents
    ? new SelfCustodyCreation({
        db,
        jobs: platform.jobs,
        intents: platform.intents,
        keyring: platform.keyring,
        funds: platform.funds,
      })
    : undefined;
  if (selfCustody) platform.intents!.register(AIRDROP_CREATE_INTENT, selfCustody.finisher());
  const service = new AirdropService({
    db,
    jobs: platform.jobs,
    payer,
    wallets: deps.wallets,
    settings: platform.settings,
    canPay: submissions !== undefined,
    funds: platform.funds,
    isStoredLogo: (url) => isStoredUpload(db, url),
    identity: deps.identity,
    intents: platform.intents,
    selfCustody,
  });
  // A claim into a self-custody wallet whose trust line it signed (docs/self-custody.md).
  platform.intents?.register(AIRDROP_LINE_INTENT, service.claimLineFinisher());
  app.decorate('airdrops', service);

  app.get('/api/airdrops', documented('/api/airdrops'), async (request, reply): Promise<Airdrop[]> => {
    reply.header('cache-control', 'private, no-store');
    const page = pageOf(request, AIRDROPS_PAGE);
    const { items, total } = await service.list(request.user?.id, page);
    sendPageHeaders(request, reply, page, total);
    return items;
  });
  app.post(
    '/api/airdrops',
    declared('user', {
      summary:
        "Create an airdrop of one of your tokens: 202 with its job; a self-custody source's answer is the transaction it signs (200).",
      body: createAirdropSchema,
      response: intentRequiredSchema,
      accepted: createAirdropResultSchema,
    }),
    async (request: FastifyRequest, reply) => {
      const created = await service.create(
        request.user!.id,
        parseInput(createAirdropSchema, request.body),
        idempotencyKey(request),
      );
      // A self-custody source answers what its wallet signs (200, as every intent); the signed
      // intent's answer is the 202's body, the job started.
      return reply.code('status' in created ? 200 : 202).send(created);
    },
  );
  app.post(
    '/api/airdrops/:id/claim',
    declared('user', {
      summary:
        "Claim your share of an airdrop into one of your wallets; a self-custody wallet's answer is its trust line to sign.",
      body: claimAirdropSchema,
      response: z.union([claimAirdropResultSchema, intentRequiredSchema]),
    }),
    (request): Promise<ClaimAirdropResult | IntentRequired> => {
      const id = pathId((request.params as { id?: string }).id, AIRDROP_MESSAGES.notFound);
      return service.claim(
        request.user!.id,
        id,
        parseInput(claimAirdropSchema, request.body),
        idempotencyKey(request),
      );
    },
  );
  app.get(
    '/api/airdrops/allocations/:walletId/:tokenCode/:issuer',
    declared('user', {
      summary: 'What airdrops allocated to one of your wallets in a token.',
      response: airdropAllocationSchema,
    }),
    async (request, reply): Promise<AirdropAllocation> => {
      reply.header('cache-control', 'private, no-store');
      const p = request.params as { walletId: string; tokenCode: string; issuer: string };
      const walletId = pathId(p.walletId, AIRDROP_MESSAGES.walletNotFound);
      return service.allocated(request.user!.id, walletId, p.tokenCode, p.issuer);
    },
  );

  // The owned expiry loop: started when the app is ready, stopped (and drained) when it closes.
  if (submissions) {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> = Promise.resolve();
    const tick = () => {
      running = service.sweep().catch((err: unknown) => {
        app.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'airdrop sweep failed');
      });
    };
    app.addHook('onReady', async () => {
      const every = deps.sweepMs ?? AIRDROP_SWEEP_MS;
      if (every > 0) {
        timer = setInterval(tick, every);
        timer.unref();
      }
      payer?.start();
    });
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
      await Promise.all([running, payer?.stop()]);
    });
  }
  return service;
}

/** A path id: strict decimal text, 404 for anything else (no such airdrop or wallet). */
function pathId(value: string | undefined, message: string): number {
  const id = parseId(value);
  if (id === undefined) throw notFound(message);
  return id;
}
