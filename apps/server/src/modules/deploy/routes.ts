import {
  deployRequestSchema,
  DEFAULT_RESERVE_BASE_DROPS,
  DEFAULT_RESERVE_INCREMENT_DROPS,
} from '@ledgerpad/shared';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../lib/validation';
import type { Platform } from '../../platform';
import type { BondingRegistry } from '../bonding';
import type { TokenRegistry } from '../tokens';
import type { WalletsApi } from '../wallets';
import { registerDeployJob } from './job';
import { deployJobKey, DeployService } from './service';
import { idempotencyKey } from '../../plugins/edge';

/** POST /api/deploy-token, and the deploy job's handler on the platform's job runner. */
export function registerDeploy(
  app: FastifyInstance,
  deps: { platform: Platform; tokens: TokenRegistry; wallets: WalletsApi; bonding?: BondingRegistry },
): DeployService {
  const { platform, tokens, wallets } = deps;
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

  app.post('/api/deploy-token', { config: { access: 'user' } }, async (request, reply) => {
    const userId = request.user!.id;
    // A retry of a deploy whose first attempt enqueued its job (then was cut: kill -9, a lost
    // answer) answers with that job: checked again, its own job would read as a deploy already
    // running from the wallet, and the XRP it spends as missing.
    const jobKey = deployJobKey(userId, idempotencyKey(request));
    const earlier = jobKey ? await service.startedBy(jobKey) : undefined;
    if (earlier) return reply.code(202).send(earlier);
    // The attempt counts before the form is parsed: an invalid form is an attempt too (spec 001 §5).
    await service.attempt(userId);
    const started = await service.start(userId, parseInput(deployRequestSchema, request.body), { jobKey });
    return reply.code(202).send(started);
  });
  return service;
}
