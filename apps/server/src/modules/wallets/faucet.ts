import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { RLUSD_CURRENCY_HEX } from '@ledgerpad/shared';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Keyring } from '../../keys/envelope';
import { AppError } from '../../lib/errors';
import { dropsToXrp, xrpToDrops } from '../../ledger/amounts';
import type { XrplConnection } from '../../ledger/connection';
import type { SubmissionService } from '../../ledger/submission-service';
import { PLATFORM_ROLES, recordGenesis } from '../../bootstrap/platform';
import { openWallet, platformWallet, type WalletRow } from './custody';
import type { WalletService } from './service';

// Test money. Stand-alone: XRP from the genesis account and RLUSD from the bootstrapped issuer, both
// as ordinary recorded transactions. Testnet: the public faucet. Mainnet: no route at all.

export interface FaucetDeps {
  db: Db;
  keyring: Keyring;
  connection: XrplConnection;
  submissions: SubmissionService;
  wallets: WalletService;
  config: Config;
  /** Resolves when the stand-alone platform accounts (RLUSD issuer) exist. */
  bootstrapped: () => Promise<unknown>;
}

export class Faucet {
  constructor(private readonly deps: FaucetDeps) {}

  async fundXrp(userId: number, row: WalletRow): Promise<{ success: true; amount: string; hash?: string }> {
    const { config } = this.deps;
    if (config.XRPL_NETWORK === 'testnet') {
      // The public faucet pays to the address; the key never leaves the server (fundWallet only reads it).
      const res = await this.deps.connection.client.fundWallet(openWallet(this.deps.keyring, row));
      return { success: true, amount: String(res.balance) };
    }
    if (config.XRPL_NETWORK !== 'standalone') throw new AppError('NOT_FOUND', 'No faucet on this network');
    const genesis =
      (await platformWallet(this.deps.db, PLATFORM_ROLES.genesis)) ??
      (await recordGenesis(this.deps.db, this.deps.keyring));
    const drops = xrpToDrops(config.FAUCET_XRP);
    const out = await this.deps.submissions.submit({
      intentKey: `faucet:xrp:${row.id}:${randomUUID()}`,
      account: genesis.address,
      tx: { TransactionType: 'Payment', Destination: row.address, Amount: drops.toString() },
      purpose: 'faucet',
      userId,
      walletId: row.id,
    });
    if (out.status !== 'success') throw new AppError('BAD_REQUEST', `Faucet payment failed (${out.result})`);
    return { success: true, amount: dropsToXrp(drops), hash: out.hash };
  }

  async fundRlusd(userId: number, row: WalletRow): Promise<{ success: true; amount: string; hash: string }> {
    await this.deps.bootstrapped();
    const issuer = await platformWallet(this.deps.db, PLATFORM_ROLES.rlusdIssuer);
    if (!issuer) throw new AppError('SERVICE_DISABLED', 'RLUSD is not set up on this network yet');
    const amount = new Decimal(this.deps.config.FAUCET_RLUSD).toFixed();
    const lines = await this.deps.wallets.lines(row.address, issuer.address);
    if (!lines.some((l) => l.currency === RLUSD_CURRENCY_HEX)) {
      const trust = await this.deps.submissions.submit({
        intentKey: `faucet:rlusd-trust:${row.id}:${randomUUID()}`,
        account: row.address,
        tx: {
          TransactionType: 'TrustSet',
          LimitAmount: { currency: RLUSD_CURRENCY_HEX, issuer: issuer.address, value: '1000000000' },
        },
        purpose: 'faucet',
        userId,
        walletId: row.id,
      });
      if (trust.status !== 'success') {
        throw new AppError('BAD_REQUEST', `Could not open an RLUSD trust line (${trust.result})`);
      }
    }
    const out = await this.deps.submissions.submit({
      intentKey: `faucet:rlusd:${row.id}:${randomUUID()}`,
      account: issuer.address,
      tx: {
        TransactionType: 'Payment',
        Destination: row.address,
        Amount: { currency: RLUSD_CURRENCY_HEX, issuer: issuer.address, value: amount },
      },
      purpose: 'faucet',
      userId,
      walletId: row.id,
    });
    if (out.status !== 'success')
      throw new AppError('BAD_REQUEST', `RLUSD faucet payment failed (${out.result})`);
    return { success: true, amount, hash: out.hash };
  }
}
