import type { FastifyInstance } from 'fastify';
import type { NewTrade } from '@ledgerpad/shared';
import type { Platform } from '../../platform';
import { rlusdIssuer } from '../../platform/accounts';
import type { TokenRegistry } from '../tokens';
import { createMarketIndexer } from './indexer';

/** The market module: the indexer's handler on the platform's ledger follower, and the public market API. */
export function registerMarket(
  app: FastifyInstance,
  deps: { platform: Platform; tokens: TokenRegistry; publishTrade: (trade: NewTrade) => Promise<void> },
): void {
  const { platform, tokens } = deps;
  const db = platform.database.db;
  if (platform.indexer && platform.connection) {
    platform.indexer.register(
      createMarketIndexer(
        {
          client: platform.connection.client,
          listTokens: () => tokens.ledgerKeys(),
          rlusdIssuer: () => rlusdIssuer(db, platform.config.XRPL_NETWORK),
          publishTrade: deps.publishTrade,
        },
        db,
      ),
    );
  }
}
