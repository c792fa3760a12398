import { Client } from 'xrpl';
import type { Config } from '../config';
import type { LedgerConnection } from '../app';

/** One xrpl.js Client for the whole server: the only way the app touches a ledger. */
export interface XrplConnection extends LedgerConnection {
  client: Client;
  connect(): Promise<void>;
  close(): Promise<void>;
}

export function createXrplConnection(network: Config['XRPL_NETWORK'], url: string): XrplConnection {
  const client = new Client(url, { connectionTimeout: 10_000 });
  return {
    network,
    url,
    client,
    isConnected: () => client.isConnected(),
    connect: () => client.connect(),
    close: async () => {
      if (client.isConnected()) await client.disconnect();
    },
  };
}
