import { randomUUID } from 'node:crypto';
import {
  SELF_CUSTODY_MESSAGES,
  deployRequestSchema,
  deployStartedSchema,
  intentRequiredSchema,
  DEFAULT_RESERVE_BASE_DROPS,
  DEFAULT_RESERVE_INCREMENT_DROPS,
} from '@ledgerpad/shared';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import type { Platform } from '../../platform';
import type { BondingRegistry } from '../bonding';
import type { TokenRegistry } from '../tokens';
import type { WalletsApi } from '../wallets';
import { registerDeployJob } from './job';
import { deployJobKey, DeployService } from './service';
import { ALLOCATION_INTENT } from '../vesting';
import { DEPLOY_INTENT, deployIntentKey, SelfCustodyDeploy } from './self-custody';
import { idempotencyKey } from '../../plugins/edge';
import { declared } from '../../plugins/access';

/** POST /api/deploy-token, and the deploy job's handler on the platform's job runner. */
export function registerDeploy(
  app: FastifyInstance,
  deps: { platform: Platform; tokens: TokenRegistry; wallets: WalletsApi; bonding?: BondingRegistry },
): DeployService {
  const { platform, tokens, wallets } = deps;
  // A deploy funded from a self-custody wallet: one signed intent, then the same job.
  const intents = platform.intents;
  const selfCustody = intents
    ? new SelfCustodyDeploy({
        db: platform.database.db,
        client: () => platform.connection?.client,
        keyring: platform.keyring,
        jobs: platform.jobs,
        intents,
        funds: platform.funds,
      })
    : undefined;
  if (selfCustody) {
    intents!.register(DEPLOY_INTENT, selfCustody.finisher());
    intents!.register(ALLOCATION_INTENT, selfCustody.allocationFinisher());
  }
  const service = new DeployService({
    db: platform.database.db,
    config: platform.config,
    client: platform.connection?.client,
    jobs: platform.jobs,
    settings: platform.settings,
    wallets,
    tokens,
    bootstrapped: () => platform.accounts.bootstrapped(),
    funds: platform.funds,
    batchEnabled: () => platform.submissions?.batchEnabled() ?? Promise.resolve(false),
    selfCustody,
    baseFee: () => platform.submissions?.reserves.baseFee ?? 0n,
    reserves: () => ({
      owner: platform.submissions?.reserves.reserveIncrement ?? DEFAULT_RESERVE_INCREMENT_DROPS,
      base: platform.submissions?.reserves.reserveBase ?? DEFAULT_RESERVE_BASE_DROPS,
    }),
  });
  if (platform.submissions && platform.connection) {
    registerDeployJob(platform.jobs, {
      db: platform.database.db,
      keyring: platform.keyring,
      submissions: platform.submissions,
      client: platform.connection.client,
      tokens,
      bonding: deps.bonding,
    });
  }

  app.post(
    '/api/deploy-token',
    declared('user', {
      summary:
        "Launch a token: 202 with the deploy job (GET /api/job-status/{jobId}); a self-custody wallet's answer is the funding it signs (200).",
      body: deployRequestSchema,
      response: intentRequiredSchema,
      accepted: deployStartedSchema,
    }),
    async (request, reply) => {
      const userId = request.user!.id;
      // A retry of a deploy whose first attempt enqueued its job (then was cut: kill -9, a lost
      // answer) answers with that job: checked again, its own job would read as a deploy already
      // running from the wallet, and the XRP it spends as missing.
      const requestKey = idempotencyKey(request);
      const jobKey = deployJobKey(userId, requestKey);
      const earlier = jobKey ? await service.startedBy(jobKey) : undefined;
      if (earlier) return reply.code(202).send(earlier);
      // A self-custody wallet's retry answers its funding intent (posted again once signed, the
      // intent answers the job it started).
      const known = requestKey ? await intents?.known(deployIntentKey(userId, requestKey)) : undefined;
      if (known) return reply.code(200).send({ status: 'sign', intent: known });
      // The attempt counts before the form is parsed: an invalid form is an attempt too (spec 001 §5).
      await service.attempt(userId);
      const started = await service.start(userId, parseInput(deployRequestSchema, request.body), {
        jobKey,
        requestKey,
      });
      // A self-custody wallet answers what it signs (200, as every intent); signed, the job's 202 body.
      return reply.code('status' in started ? 200 : 202).send(started);
    },
  );
  // A self-funded deploy's dev allocation (docs/self-custody.md "Deploy"): the intent that claims
  // and locks it, signed by the creator's wallet once the token is live.
  app.post<{ Params: { jobId: string } }>(
    '/api/deploy-token/:jobId/allocation',
    declared('user', {
      summary: "Claim and lock a self-funded deploy's dev allocation: the intent the creator's wallet signs.",
      response: intentRequiredSchema,
    }),
    async (request) => {
      if (!selfCustody) throw badRequest(SELF_CUSTODY_MESSAGES.notSupported);
      return selfCustody.prepareAllocation(
        request.user!.id,
        request.params.jobId,
        idempotencyKey(request) ?? randomUUID(),
      );
    },
  );
  return service;
}
