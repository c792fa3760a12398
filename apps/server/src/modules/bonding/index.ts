import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform';
import type { TokenRegistry } from '../tokens';
import { AntiSniperClock } from './anti-sniper';
import { createBondingIndexer, startGraduation } from './indexer';
import { registerBondingJobs } from './jobs';
import { LadderKeeper } from './keeper';
import { bondingRoutes } from './routes';
import { BondingRegistry } from './service';

// Bonding-curve launches (docs/bonding-curve.md): the curve's registry, the follower's bonding
// handler, the keeper that holds each curve's ladder on the ledger, the fee-sweep and graduation
// jobs, and the public curve routes. What other modules use is `BondingApi`.

export interface BondingApi {
  registry: BondingRegistry;
  /** Undefined without a ledger connection. */
  keeper?: LadderKeeper;
}

export function registerBonding(
  app: FastifyInstance,
  deps: { platform: Platform; tokens: TokenRegistry; xrpUsd: () => Promise<string | null> },
): BondingApi {
  const { platform } = deps;
  platform.logWrites({ 'bonding:refund': 'curve deposit refund' });
  const db = platform.database.db;
  const validated = () => platform.submissions?.ledgerIndex ?? 0;
  const registry = new BondingRegistry(db, validated);
  bondingRoutes(app, { registry, xrpUsd: deps.xrpUsd, cache: platform.readCache });
  if (!platform.connection || !platform.submissions || !platform.indexer) return { registry };

  const client = platform.connection.client;
  const antiSniper = new AntiSniperClock(db, () => client, validated);
  registry.antiSniperClock = antiSniper;
  const keeper = new LadderKeeper({
    db,
    client,
    onConnected: (l) => platform.connection!.onConnected(l),
    submissions: platform.submissions,
    registry,
    settings: platform.settings,
    log: app.log.child({ component: 'bonding-keeper' }),
    leaseMs: platform.config.BONDING_KEEPER_LEASE_MS,
    antiSniper,
    graduate: async (curveId) => {
      await db.transaction((tx) => startGraduation(platform.jobs, tx, curveId));
      registry.changed();
    },
  });
  registerBondingJobs(platform.jobs, {
    db,
    client,
    submissions: platform.submissions,
    settings: platform.settings,
    tokens: deps.tokens,
    registry,
  });
  const handler = createBondingIndexer({
    client,
    registry,
    jobs: platform.jobs,
    // A safety net behind the keeper's own trigger (the curve accounts' stream): what a ledger touched.
    onLedger: async (_ledger, touched) => keeper.poke(touched),
  });
  // A newly claimed follower (start-up, takeover) looks at every curve once.
  platform.indexer.register({
    ...handler,
    reset() {
      handler.reset?.();
      void keeper.pokeAll().catch(() => undefined);
    },
  });
  const follow = async () => {
    await keeper.watch(await registry.live());
    await keeper.pokeAll();
  };
  registry.onChange(() => void follow().catch(() => undefined));
  app.addHook('onReady', async () => {
    keeper.start();
    await follow();
  });
  app.addHook('onClose', () => keeper.stop());
  return { registry, keeper };
}

export { BondingRegistry, type CurveRow, type NewCurve } from './service';
export { LadderKeeper } from './keeper';
