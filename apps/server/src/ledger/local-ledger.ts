import { RippledError, type Client } from 'xrpl';

// The embedded ledger in this thread answers requests in-process: the same handlers as its
// WebSocket, without the socket and the JSON text both ways (a quote's three reads — trust line,
// simulate, amm_info — spent ~1.4 ms of CPU per quote in xrpl.js, ws framing and JSON). Reads
// only, and only while the xrpl.js connection is up: with the ledger unreachable every request
// fails as it always did. Submissions stay on the socket (their order with other requests).

/** The embedded ledger's in-process entry (xrpl-standalone's `StandaloneLedger.request`). */
export type LocalLedgerRequest = (request: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** What reads use: `client.request`'s shape, answered in-process when the ledger runs here. */
export type LedgerReader = Pick<Client, 'request'>;

/**
 * `client.request` for reads, answered by `local` when given and the connection is up: the
 * response as xrpl.js gives it (the envelope, `api_version` as the client sends it), a rippled
 * error as the same `RippledError`.
 */
export function ledgerReader(client: Client, local: LocalLedgerRequest | undefined): LedgerReader {
  if (!local) return client;
  const request = async (req: Record<string, unknown>) => {
    if (!client.isConnected()) return client.request(req as never);
    // As the socket's JSON would carry it: no top-level keys without a value (`marker: undefined`).
    const sent: Record<string, unknown> = { api_version: client.apiVersion };
    for (const [k, v] of Object.entries(req)) if (v !== undefined) sent[k] = v;
    const reply = await local(sent);
    if (reply.status === 'error' || reply.error !== undefined) {
      const message = reply.error_message ?? reply.error_exception ?? reply.error;
      throw new RippledError(String(message), reply);
    }
    // As xrpl.js resolves a response: the envelope without its status.
    const { status: _status, ...response } = reply;
    return response;
  };
  return { request: request as Client['request'] };
}
