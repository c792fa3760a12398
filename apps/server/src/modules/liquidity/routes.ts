import {
  addLiquiditySchema,
  ammAuctionSchema,
  ammBidSchema,
  ammVoteSchema,
  lpBalanceSchema,
  lpPositionSchema,
  lpPriceSchema,
  removeLiquiditySchema,
  addLiquidityResultSchema,
  ammAuctionViewSchema,
  ammBidResultSchema,
  ammVoteResultSchema,
  intentRequiredSchema,
  lpBalanceResultSchema,
  lpPositionResultSchema,
  lpPriceResultSchema,
  removeLiquidityResultSchema,
} from '@ledgerpad/shared';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform';
import { rlusdIssuer } from '../../platform/accounts';
import { withLedger } from '../../lib/errors';
import { userPost } from '../../plugins/edge';
import type { TokenRegistry } from '../tokens';
import type { WalletsApi } from '../wallets';
import { AMM_INTENT_PURPOSES, LiquidityService } from './service';

/**
 * POST /api/add-liquidity, /api/remove-liquidity, /api/amm-vote, /api/amm-bid (CSRF: every POST),
 * and the reads /api/lp-token-balance, /api/get-lp-price, /api/lp-position and /api/amm-auction.
 * Signed-in users only; wallets are the caller's own.
 */
export function registerLiquidity(
  app: FastifyInstance,
  deps: { platform: Platform; tokens: TokenRegistry; wallets: WalletsApi },
): LiquidityService | undefined {
  const { platform } = deps;
  const { submissions, connection, funds } = platform;
  // Without a ledger the routes are there and answer 503 (withLedger), as every ledger route does.
  const service =
    submissions && connection && funds
      ? new LiquidityService({
          client: connection.client,
          submissions,
          funds,
          tokens: deps.tokens,
          wallets: deps.wallets,
          rlusdIssuer: () => rlusdIssuer(platform.database.db, platform.config.XRPL_NETWORK),
          intents: platform.intents,
        })
      : undefined;
  // Deposits, withdrawals and votes of self-custody wallets, once signed (docs/self-custody.md).
  if (service)
    for (const purpose of AMM_INTENT_PURPOSES) platform.intents?.register(purpose, service.finisher(purpose));
  const amm = () => withLedger(service);
  /** A self-custody wallet answers the transaction it signs instead (docs/self-custody.md). */
  const orSign = (response: z.ZodType) => z.union([response, intentRequiredSchema]);
  userPost(
    app,
    '/api/add-liquidity',
    addLiquiditySchema,
    { summary: "Deposit into a token's AMM pool.", response: orSign(addLiquidityResultSchema) },
    (u, b, k) => amm().add(u, b, k),
  );
  userPost(
    app,
    '/api/remove-liquidity',
    removeLiquiditySchema,
    { summary: "Withdraw from a token's AMM pool.", response: orSign(removeLiquidityResultSchema) },
    (u, b, k) => amm().remove(u, b, k),
  );
  userPost(
    app,
    '/api/amm-vote',
    ammVoteSchema,
    {
      summary: "Vote on a pool's trading fee with a wallet's LP tokens.",
      response: orSign(ammVoteResultSchema),
    },
    (u, b, k) => amm().vote(u, b, k),
  );
  userPost(
    app,
    '/api/lp-token-balance',
    lpBalanceSchema,
    { summary: "A wallet's LP tokens of a token's pool.", response: lpBalanceResultSchema },
    (u, b) => amm().lpBalance(u, b),
  );
  userPost(
    app,
    '/api/get-lp-price',
    lpPriceSchema,
    {
      summary: "A pool's LP token price, and what a deposit or withdrawal would move now.",
      response: lpPriceResultSchema,
    },
    (_u, b) => amm().lpPrice(b),
  );
  userPost(
    app,
    '/api/lp-position',
    lpPositionSchema,
    { summary: "A wallet's share of a pool and how it has done.", response: lpPositionResultSchema },
    (u, b) => amm().position(u, b),
  );
  userPost(
    app,
    '/api/amm-auction',
    ammAuctionSchema,
    { summary: "A pool's auction slot and what a bid costs now.", response: ammAuctionViewSchema },
    (_u, b) => amm().auction(b),
  );
  userPost(
    app,
    '/api/amm-bid',
    ammBidSchema,
    { summary: "Bid for a pool's auction slot with a wallet's LP tokens.", response: ammBidResultSchema },
    (u, b, k) => amm().bid(u, b, k),
  );
  return service;
}
