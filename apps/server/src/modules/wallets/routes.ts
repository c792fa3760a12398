import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  addSelfCustodyWalletSchema,
  ownershipChallengeRequestSchema,
  balancesRequestSchema,
  createWalletSchema,
  importWalletSchema,
  removeTrustlineSchema,
  renameWalletSchema,
  transferSchema,
  USER_LIST_PAGE,
  createWalletResponseSchema,
  faucetResultSchema,
  intentRequiredSchema,
  ledgerObjectsResponseSchema,
  ownershipChallengeSchema,
  removeTrustlineResponseSchema,
  transferResponseSchema,
  trustlinesResponseSchema,
  walletBalancesResponseSchema,
  walletDelegationResponseSchema,
  walletListResponseSchema,
  walletRemovedSchema,
  walletSchema,
  type RouteSchemas,
} from '@ledgerpad/shared';
import { z } from 'zod';
import { withLedger } from '../../lib/errors';
import { pageOf, pageSlice } from '../../lib/paging';
import { parseInput } from '../../lib/validation';
import type { Platform } from '../../platform';
import { DAY_MS } from '../../platform/quotas';
import { idempotencyKey, idParam } from '../../plugins/edge';
import { Delegations } from './delegation';
import { Faucet } from './faucet';
import { OwnershipProofs } from './self-custody';
import { summary, WalletService, type TransferSpend } from './service';
import { limitResult, registerTrustlineLimit } from './trustline-limit';
import { declared, documented } from '../../plugins/access';

/** What other modules use of the wallets module: a user's wallets, ownership-checked. */
export interface WalletsModule {
  /** Wallet records work without a ledger; its ledger calls answer 503 then. */
  service: WalletService;
  /** Delegated trading of self-custody wallets (absent without a ledger). */
  delegations?: Delegations;
}

const userId = (request: FastifyRequest) => request.user!.id;

/**
 * The Wallets routes and the faucet. Custody, the submission service and the platform accounts come
 * from the platform; this module builds none of them.
 */
export async function registerWallets(app: FastifyInstance, platform: Platform): Promise<WalletsModule> {
  const { config, database, keyring, connection, submissions, funds, intents } = platform;
  platform.logWrites({ transfer: 'transfer' });
  const db = database.db;
  const service = new WalletService({
    db,
    keyring,
    connection,
    submissions,
    funds,
    intents,
    tradingFeePercent: async () => (await platform.settings.all()).trading_fee_percent,
    network: config.XRPL_NETWORK,
  });
  // A self-custody wallet's transfer, once signed in the browser or wallet app: checked again
  // before it is sent, answered as the custodial route answers (docs/self-custody.md).
  intents?.register('transfer', {
    recheck: (intent) =>
      service.checkTransfer(intent.account, (intent.context as { spend: TransferSpend }).spend),
    finish: async (_intent, [outcome]) => service.transferResult(outcome!),
  });
  const delegations =
    connection && submissions && funds
      ? new Delegations({
          db,
          keyring,
          connection,
          submissions,
          funds,
          intents,
          wallets: service,
          network: config.XRPL_NETWORK,
        })
      : undefined;
  if (delegations) intents?.register('delegate-set', delegations.finisher());
  // A self-custody wallet's trust-line removal and limit change: the network fee checked again.
  const oneFee = async (intent: { account: string }) => {
    await funds?.requireXrp(intent.account, { transactions: 1 });
  };
  intents?.register('remove-trustline', {
    recheck: oneFee,
    finish: async (_intent, [outcome]) => service.removedResult(outcome!),
  });
  intents?.register('set-trustline-limit', {
    recheck: oneFee,
    finish: async (intent, [outcome]) => limitResult(outcome!, (intent.context as { limit: string }).limit),
  });
  const proofs = new OwnershipProofs({
    db,
    connection,
    wallets: service,
    origin: () => config.PUBLIC_ORIGIN ?? 'this site',
  });

  // Every wallet route needs a signed-in user; ownership is checked in the service. Each declares
  // its schemas (packages/shared), and GET /api/docs documents it from them (issue 41).
  const user = (schemas: RouteSchemas) => declared('user', schemas);
  /** A self-custody wallet answers the transaction it signs instead (docs/self-custody.md). */
  const orSign = (response: z.ZodType) => z.union([response, intentRequiredSchema]);
  // Each wallet is a custody record kept forever (archiving keeps the key), so creations and imports
  // are bounded per user per day, archived wallets included.
  const walletsRule = {
    bucket: 'wallets_user',
    limit: config.WALLETS_PER_USER_PER_DAY,
    windowMs: DAY_MS,
    message: `you can create or import at most ${config.WALLETS_PER_USER_PER_DAY} wallets a day (removed wallets count).`,
  };
  const withinWallets = <T>(request: FastifyRequest, fn: () => Promise<T>) =>
    platform.quotas.within(walletsRule, String(userId(request)), 1, fn);

  app.get('/api/wallets/xrpl/status', documented('/api/wallets/xrpl/status'), async () => ({
    connected: platform.ledger.isConnected(),
  }));

  // Lists are paged (`?limit=&offset=`, X-Total-Count; docs/paging.md); the shape stays the spec's.
  app.get(
    '/api/wallets',
    user({ summary: 'Your wallets.', response: walletListResponseSchema, paged: true }),
    async (request, reply) => {
      const page = pageOf(request, USER_LIST_PAGE);
      const rows = await service.list(userId(request));
      const shown = pageSlice(request, reply, page, rows);
      // A self-custody wallet's delegation is read from the ledger (docs/self-custody.md).
      const withDelegation = await Promise.all(
        shown.map(async (row) => {
          const delegation = await delegations?.stateOf(userId(request), row).catch(() => null);
          return delegation ? { ...summary(row), delegation } : summary(row);
        }),
      );
      return { wallets: withDelegation };
    },
  );

  app.post(
    '/api/wallets/balances',
    user({
      summary: "Your wallets' balances, reserves and what each can spend, read from the ledger.",
      body: balancesRequestSchema,
      response: walletBalancesResponseSchema,
    }),
    async (request) => {
      const body = parseInput(balancesRequestSchema, request.body);
      return service.balances(userId(request), body.wallets as Array<number | string | { id: number }>);
    },
  );

  app.post(
    '/api/wallets',
    user({
      summary: 'Create a custodial wallet (its seed is in this answer only).',
      body: createWalletSchema,
      response: createWalletResponseSchema,
    }),
    async (request) => {
      const body = parseInput(createWalletSchema, request.body);
      return withinWallets(request, () =>
        service.create(userId(request), body.name, idempotencyKey(request)),
      );
    },
  );

  app.post(
    '/api/wallets/import',
    user({
      summary: 'Import a wallet from its seed, mnemonic or private key (kept sealed, as a custodial one).',
      body: importWalletSchema,
      response: walletSchema,
    }),
    async (request) => {
      const body = parseInput(importWalletSchema, request.body);
      return withinWallets(request, () => service.import(userId(request), body, idempotencyKey(request)));
    },
  );

  // Self-custody wallets (docs/self-custody.md): a one-time challenge, then its signed proof.
  const challengesRule = {
    bucket: 'wallet_challenges',
    limit: 120,
    windowMs: 3600_000,
    message: 'too many ownership checks this hour.',
  };
  app.post(
    '/api/wallets/challenge',
    user({
      summary: 'Start adding a self-custody wallet: the ownership proof its key signs.',
      body: ownershipChallengeRequestSchema,
      response: ownershipChallengeSchema,
    }),
    async (request) => {
      const body = parseInput(ownershipChallengeRequestSchema, request.body);
      return platform.quotas.within(challengesRule, String(userId(request)), 1, () =>
        proofs.challenge(userId(request), body),
      );
    },
  );

  app.post(
    '/api/wallets/self-custody',
    user({
      summary: 'Add a self-custody wallet with its signed ownership proof.',
      body: addSelfCustodyWalletSchema,
      response: walletSchema,
    }),
    async (request) => {
      const body = parseInput(addSelfCustodyWalletSchema, request.body);
      return withinWallets(request, () => proofs.add(userId(request), body));
    },
  );

  app.post(
    '/api/wallets/transfer',
    user({
      summary: 'Send XRP or a token from one of your wallets.',
      body: transferSchema,
      response: orSign(transferResponseSchema),
    }),
    async (request) => {
      const body = parseInput(transferSchema, request.body);
      return service.transfer(userId(request), body, idempotencyKey(request));
    },
  );

  app.post(
    '/api/wallets/remove-trustline',
    user({
      summary: "Remove one of a wallet's trust lines (its balance must be 0).",
      body: removeTrustlineSchema,
      response: orSign(removeTrustlineResponseSchema),
    }),
    async (request) => {
      const body = parseInput(removeTrustlineSchema, request.body);
      return service.removeTrustline(userId(request), body, idempotencyKey(request));
    },
  );

  const walletParam = (request: FastifyRequest) => idParam(request, 'id');

  // Delegated trading (docs/self-custody.md "Delegated trading"): the state, read from the ledger;
  // turning it on or off answers the DelegateSet the wallet signs.
  // Without a ledger the routes are there and answer 503 (withLedger), as every ledger route does.
  app.get(
    '/api/wallets/:id/delegation',
    user({
      summary: "A self-custody wallet's delegated trading, read from the ledger.",
      response: walletDelegationResponseSchema,
    }),
    async (request) => {
      const row = await service.owned(userId(request), walletParam(request));
      return { delegation: await withLedger(delegations).stateOf(userId(request), row) };
    },
  );
  app.post(
    '/api/wallets/:id/delegation',
    user({
      summary: 'Turn delegated trading on: the DelegateSet the wallet signs.',
      response: intentRequiredSchema,
    }),
    async (request) =>
      withLedger(delegations).enable(userId(request), walletParam(request), idempotencyKey(request)),
  );
  app.delete(
    '/api/wallets/:id/delegation',
    user({
      summary: 'Turn delegated trading off: the DelegateSet the wallet signs.',
      response: intentRequiredSchema,
    }),
    async (request) =>
      withLedger(delegations).revoke(userId(request), walletParam(request), idempotencyKey(request)),
  );

  app.delete(
    '/api/wallets/:id',
    user({ summary: 'Remove a wallet from your list (its key is kept).', response: walletRemovedSchema }),
    async (request) => {
      await service.archive(userId(request), walletParam(request));
      return { success: true };
    },
  );

  app.put(
    '/api/wallets/:id/name',
    user({ summary: 'Rename a wallet.', body: renameWalletSchema, response: walletSchema }),
    async (request) => {
      const body = parseInput(renameWalletSchema, request.body);
      return service.rename(userId(request), walletParam(request), body.name);
    },
  );

  app.get(
    '/api/wallets/:id/ledger-objects',
    user({
      summary: "A wallet's reserve and ledger objects.",
      response: ledgerObjectsResponseSchema,
      paged: true,
    }),
    async (request, reply) => {
      const page = pageOf(request, USER_LIST_PAGE);
      const view = await service.ledgerObjects(userId(request), walletParam(request));
      return { ...view, objects: pageSlice(request, reply, page, view.objects) };
    },
  );

  app.get(
    '/api/wallets/:id/trustlines',
    user({ summary: "A wallet's trust lines.", response: trustlinesResponseSchema, paged: true }),
    async (request, reply) => {
      const page = pageOf(request, USER_LIST_PAGE);
      const view = await service.trustlines(userId(request), walletParam(request));
      return { trustlines: pageSlice(request, reply, page, view.trustlines) };
    },
  );

  // Faucets exist only where money is free: stand-alone (genesis) and testnet. No route on mainnet;
  // without a ledger the routes answer 503 (withLedger), as every ledger route does.
  if (config.XRPL_NETWORK !== 'mainnet') {
    const faucet =
      connection && submissions
        ? new Faucet({
            db,
            keyring,
            connection,
            submissions,
            wallets: service,
            config,
            bootstrapped: () => platform.accounts.bootstrapped(),
            quotas: platform.quotas,
          })
        : undefined;
    app.post(
      '/api/wallets/:id/fund',
      user({
        summary: 'Fund a wallet with test XRP (stand-alone ledger and testnet only).',
        response: faucetResultSchema,
      }),
      async (request) => {
        const row = await service.owned(userId(request), walletParam(request));
        return withLedger(faucet).fundXrp(userId(request), row, request.ip, idempotencyKey(request));
      },
    );
    if (config.XRPL_NETWORK === 'standalone') {
      app.post(
        '/api/wallets/:id/fund-rlusd',
        user({
          summary: 'Fund a wallet with test RLUSD (stand-alone ledger only).',
          response: faucetResultSchema,
        }),
        async (request) => {
          const row = await service.owned(userId(request), walletParam(request));
          return withLedger(faucet).fundRlusd(userId(request), row, request.ip, idempotencyKey(request));
        },
      );
    }
  }

  registerTrustlineLimit(app, { service, submissions, funds, intents });
  return { service, delegations };
}
