import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  balancesRequestSchema,
  createWalletSchema,
  importWalletSchema,
  removeTrustlineSchema,
  renameWalletSchema,
  transferSchema,
  walletIdSchema,
} from '@ledgerpad/shared';
import type { AppDeps } from '../../app';
import {
  bootstrapSettings,
  bootstrapStandalone,
  ensurePublicPlatformWallets,
  recordGenesis,
} from '../../bootstrap/platform';
import { generateMasterKey, Keyring } from '../../keys/envelope';
import { loadKeyring } from '../../keys/key-file';
import { AppError } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import type { XrplConnection } from '../../ledger/connection';
import { toLedgerAppError } from '../../ledger/errors';
import { SubmissionService } from '../../ledger/submission-service';
import { requireUser } from '../../plugins/auth';
import { createSignerSource } from './custody';
import { Faucet } from './faucet';
import { summary, WalletService } from './service';

/** What other modules use: the one submission path and the custody of platform keys. */
export interface WalletsModule {
  keyring: Keyring;
  /** Undefined only when the app runs without a ledger connection (API-only tests). */
  submissions?: SubmissionService;
  /** Wallet records work without a ledger; its ledger calls answer 503 then. */
  service: WalletService;
  /** Settles when the stand-alone platform accounts exist (or immediately elsewhere). */
  bootstrapped: () => Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    wallets: WalletsModule;
  }
}

function isXrplConnection(ledger: AppDeps['ledger']): ledger is XrplConnection {
  return 'client' in ledger && typeof (ledger as Partial<XrplConnection>).onConnected === 'function';
}

const userId = (request: FastifyRequest) => request.user!.id;

function idempotencyKey(request: FastifyRequest): string | undefined {
  const v = request.headers['idempotency-key'];
  return typeof v === 'string' && /^[A-Za-z0-9_.:-]{8,128}$/.test(v) ? v : undefined;
}

/**
 * Registers custody, the submission service and the Wallets routes on the root instance (not an
 * encapsulated plugin) so `app.wallets` is visible to every module registered after it.
 */
export async function registerWallets(app: FastifyInstance, deps: AppDeps): Promise<WalletsModule> {
  const { config, database } = deps;
  const db = database.db;
  // Tests without MASTER_KEY get a throw-away key instead of writing a key file into ./data.
  const keyring =
    config.NODE_ENV === 'test' && !config.MASTER_KEY
      ? new Keyring(generateMasterKey())
      : loadKeyring({
          masterKey: config.MASTER_KEY,
          previousKeys: config.MASTER_KEY_PREVIOUS,
          dataDir: config.dataDir,
        });
  const connection = isXrplConnection(deps.ledger) ? deps.ledger : undefined;
  const submissions = connection
    ? new SubmissionService({ database, connection, signers: createSignerSource(db, keyring), log: app.log })
    : undefined;
  const service = new WalletService({ db, keyring, connection, submissions });

  const runBootstrap =
    config.PLATFORM_BOOTSTRAP === 'on' ||
    (config.PLATFORM_BOOTSTRAP === 'auto' && config.NODE_ENV !== 'test');
  let bootstrap: Promise<unknown> = Promise.resolve();
  let bootstrapFailed = false;
  const startBootstrap = (): Promise<unknown> => {
    if (!submissions || !connection) return bootstrap;
    bootstrapFailed = false;
    // Every step has a fixed intent key, so running it again continues where it stopped.
    bootstrap = bootstrapStandalone({
      db,
      keyring,
      submissions,
      client: connection.client,
      settings: bootstrapSettings(config),
      log: app.log,
    }).then(
      (report) => app.log.info({ report }, 'standalone platform accounts ready'),
      (err: unknown) => {
        bootstrapFailed = true;
        app.log.error(
          { err: err instanceof Error ? err.message : String(err) },
          'standalone bootstrap failed',
        );
      },
    );
    return bootstrap;
  };
  const module: WalletsModule = {
    keyring,
    submissions,
    service,
    // A bootstrap that failed (ledger unreachable at start) is tried again by whoever needs it.
    bootstrapped: () => (bootstrapFailed ? startBootstrap() : bootstrap),
  };
  app.decorate('wallets', module);

  app.addHook('onReady', async () => {
    if (!submissions || !connection) return;
    await submissions.start();
    if (config.XRPL_NETWORK === 'standalone') {
      await recordGenesis(db, keyring);
      // In the background: the API is usable at once; only the RLUSD faucet waits for it.
      if (runBootstrap) void startBootstrap();
    } else {
      await ensurePublicPlatformWallets(db, keyring);
    }
  });
  // Operators see the ledger going away and coming back (the connection reconnects on its own).
  const unwatch = connection
    ? [
        connection.onDisconnected(() => app.log.warn({ url: connection.url }, 'ledger connection lost')),
        connection.onConnected(() => app.log.info({ url: connection.url }, 'ledger connected')),
      ]
    : [];
  app.addHook('onClose', async () => {
    for (const u of unwatch) u();
    await submissions?.stop();
  });

  const auth = { preHandler: requireUser };
  /** Ledger failures become 503/502 with a plain message instead of a 500. */
  const ledgerRoute =
    <T>(fn: (request: FastifyRequest) => Promise<T>) =>
    async (request: FastifyRequest): Promise<T> => {
      try {
        return await fn(request);
      } catch (err) {
        throw toLedgerAppError(err);
      }
    };

  app.get('/api/wallets/xrpl/status', async () => ({ connected: deps.ledger.isConnected() }));

  app.get(
    '/api/wallets',
    auth,
    ledgerRoute(async (request) => {
      const rows = await service.list(userId(request));
      return { wallets: rows.map(summary) };
    }),
  );

  app.post(
    '/api/wallets/balances',
    auth,
    ledgerRoute(async (request) => {
      const body = parseInput(balancesRequestSchema, request.body);
      return service.balances(userId(request), body.wallets as Array<number | string | { id: number }>);
    }),
  );

  app.post(
    '/api/wallets',
    auth,
    ledgerRoute(async (request) => {
      const body = parseInput(createWalletSchema, request.body);
      return service.create(userId(request), body.name);
    }),
  );

  app.post(
    '/api/wallets/import',
    auth,
    ledgerRoute(async (request) => {
      const body = parseInput(importWalletSchema, request.body);
      return service.import(userId(request), body);
    }),
  );

  app.post(
    '/api/wallets/transfer',
    auth,
    ledgerRoute(async (request) => {
      const body = parseInput(transferSchema, request.body);
      return service.transfer(userId(request), body, idempotencyKey(request));
    }),
  );

  app.post(
    '/api/wallets/remove-trustline',
    auth,
    ledgerRoute(async (request) => {
      const body = parseInput(removeTrustlineSchema, request.body);
      return service.removeTrustline(userId(request), body);
    }),
  );

  const walletParam = (request: FastifyRequest) => {
    const parsed = walletIdSchema.safeParse((request.params as { id?: string }).id);
    if (!parsed.success) throw new AppError('NOT_FOUND', 'Wallet not found');
    return parsed.data;
  };

  app.delete(
    '/api/wallets/:id',
    auth,
    ledgerRoute(async (request) => {
      await service.archive(userId(request), walletParam(request));
      return { success: true };
    }),
  );

  app.put(
    '/api/wallets/:id/name',
    auth,
    ledgerRoute(async (request) => {
      const body = parseInput(renameWalletSchema, request.body);
      return service.rename(userId(request), walletParam(request), body.name);
    }),
  );

  app.get(
    '/api/wallets/:id/ledger-objects',
    auth,
    ledgerRoute(async (request) => service.ledgerObjects(userId(request), walletParam(request))),
  );

  app.get(
    '/api/wallets/:id/trustlines',
    auth,
    ledgerRoute(async (request) => service.trustlines(userId(request), walletParam(request))),
  );

  // Faucets exist only where money is free: stand-alone (genesis) and testnet. No route on mainnet.
  if (config.XRPL_NETWORK !== 'mainnet' && connection && submissions) {
    const faucet = new Faucet({
      db,
      keyring,
      connection,
      submissions,
      wallets: service,
      config,
      bootstrapped: () => module.bootstrapped(),
    });
    app.post(
      '/api/wallets/:id/fund',
      auth,
      ledgerRoute(async (request) => {
        const row = await service.owned(userId(request), walletParam(request));
        return faucet.fundXrp(userId(request), row);
      }),
    );
    if (config.XRPL_NETWORK === 'standalone') {
      app.post(
        '/api/wallets/:id/fund-rlusd',
        auth,
        ledgerRoute(async (request) => {
          const row = await service.owned(userId(request), walletParam(request));
          return faucet.fundRlusd(userId(request), row);
        }),
      );
    }
  }

  return module;
}
