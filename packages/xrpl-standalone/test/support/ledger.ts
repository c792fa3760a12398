// The one stand-alone ledger harness of this package's tests: a fresh server on a free port that
// closes only when a test says so, with an xrpl.js client connected to it. The server, DEX/AMM and
// escrow suites start theirs here (each with its own options); the core suites drive a LedgerNode
// without a server (core/helpers.ts).
import { Client, Wallet } from 'xrpl';
import {
  GENESIS_SEED,
  startStandaloneLedger,
  type StandaloneLedger,
  type StandaloneLedgerOptions,
} from '../../src/index';

/** The genesis account, which holds every XRP of a new ledger. */
export const genesis = Wallet.fromSeed(GENESIS_SEED, { algorithm: 'secp256k1' as never });

export interface TestLedger {
  ledger: StandaloneLedger;
  client: Client;
  close(): Promise<void>;
}

export async function startTestLedger(options: StandaloneLedgerOptions = {}): Promise<TestLedger> {
  const ledger = await startStandaloneLedger({ port: 0, closeIntervalMs: 0, ...options });
  const client = new Client(ledger.url);
  await client.connect();
  return {
    ledger,
    client,
    close: async () => {
      await client.disconnect();
      await ledger.close();
    },
  };
}
