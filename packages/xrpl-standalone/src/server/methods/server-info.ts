// server_info / server_state / fee / ping / random / server_definitions / ledger_accept.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { JsonObject } from '../../core/contract';
import type { MethodContext, MethodSpec } from '../context';
import { completeLedgers, dropsToXrpNumber } from '../ledger-info';
import { RpcError } from '../errors';
import { closeTimeIso } from '../tx-format';

const BUILD_VERSION = '2.4.0-xrpl-standalone';
// A fixed, well-formed node public key: stand-alone has no peers, so identity is cosmetic.
const PUBKEY_NODE = 'n9KAa2zVWjPHgfzsE3iZ8HAbzJtPrnoh4H2M2HgE7dfqtvyEb1KJ';

function stateAccounting(uptimeUs: bigint): JsonObject {
  const zero = { duration_us: '0', transitions: '0' };
  return {
    connected: zero,
    disconnected: zero,
    full: { duration_us: uptimeUs.toString(), transitions: '1' },
    syncing: zero,
    tracking: zero,
  };
}

function serverInfo(ctx: MethodContext, inDrops: boolean): JsonObject {
  const { node, services } = ctx;
  const validated = node.validated();
  const { baseFee, reserveBase, reserveIncrement, networkId } = node.config;
  const now = Date.now();
  const uptimeUs = BigInt(now - services.startedAt) * 1000n;
  // Age on the ledger's own clock: a ledger running behind the wall clock is not stale.
  const age = Math.max(0, services.clock.now() - validated.header.close_time);
  const info: JsonObject = {
    build_version: BUILD_VERSION,
    complete_ledgers: completeLedgers(node),
    initial_sync_duration_us: '0',
    io_latency_ms: 1,
    jq_trans_overflow: '0',
    // What rippled reports in stand-alone: no consensus round, a nominal 100 ms convergence.
    last_close: inDrops ? { converge_time: 100, proposers: 0 } : { converge_time_s: 0.1, proposers: 0 },
    load: { job_types: [], threads: 1 },
    node_size: 'tiny',
    peer_disconnects: '0',
    peer_disconnects_resources: '0',
    peers: 0,
    ports: [{ port: String(services.port), protocol: ['http', 'ws'] }],
    pubkey_node: PUBKEY_NODE,
    pubkey_validator: 'none',
    server_state: 'full',
    server_state_duration_us: uptimeUs.toString(),
    state_accounting: stateAccounting(uptimeUs),
    time: new Date(now).toISOString(),
    uptime: Math.floor((now - services.startedAt) / 1000),
    validation_quorum: 0,
  };
  info.network_id = networkId ?? 0;
  if (inDrops) {
    info.validator_list_expires = 0;
  } else {
    // server_info (not server_state) names the host, as rippled does for admin clients.
    info.hostid = 'xrpl-standalone';
    info.validator_list = { count: 0, expiration: 'unknown', status: 'unknown' };
  }
  if (inDrops) {
    info.load_base = 256;
    info.load_factor = 256;
    info.load_factor_fee_escalation = 256;
    info.load_factor_fee_queue = 256;
    info.load_factor_fee_reference = 256;
    info.load_factor_server = 256;
    info.validated_ledger = {
      base_fee: Number(baseFee),
      close_time: validated.header.close_time,
      hash: validated.header.ledger_hash,
      reserve_base: Number(reserveBase),
      reserve_inc: Number(reserveIncrement),
      seq: validated.header.ledger_index,
    };
  } else {
    info.load_factor = 1;
    info.validated_ledger = {
      age,
      base_fee_xrp: dropsToXrpNumber(baseFee),
      hash: validated.header.ledger_hash,
      reserve_base_xrp: dropsToXrpNumber(reserveBase),
      reserve_inc_xrp: dropsToXrpNumber(reserveIncrement),
      seq: validated.header.ledger_index,
    };
  }
  return inDrops ? { state: info } : { info };
}

export const serverInfoMethod: MethodSpec = { handler: (ctx) => serverInfo(ctx, false) };
export const serverStateMethod: MethodSpec = { handler: (ctx) => serverInfo(ctx, true) };

export const feeMethod: MethodSpec = {
  handler: ({ node }) => {
    const base = node.config.baseFee.toString();
    const current = node.current();
    return {
      current_ledger_size: String(current.transactions.length),
      current_queue_size: '0',
      drops: {
        base_fee: base,
        median_fee: (node.config.baseFee * 500n).toString(),
        minimum_fee: base,
        open_ledger_fee: base,
      },
      expected_ledger_size: '1000',
      ledger_current_index: current.header.ledger_index,
      levels: {
        median_level: '128000',
        minimum_level: '256',
        open_ledger_level: '256',
        reference_level: '256',
      },
      max_queue_size: '20000',
    };
  },
};

// rippled tells admin (and identified) clients their role.
export const pingMethod: MethodSpec = {
  handler: ({ admin }) => (admin ? { role: 'admin', unlimited: true } : {}),
};

export const randomMethod: MethodSpec = {
  handler: () => ({ random: randomBytes(32).toString('hex').toUpperCase() }),
};

let definitionsCache: JsonObject | undefined;
export const serverDefinitionsMethod: MethodSpec = {
  handler: ({ params }) => {
    if (!definitionsCache) {
      const require = createRequire(import.meta.url);
      const definitions = require('ripple-binary-codec/dist/enums/definitions.json') as JsonObject;
      definitionsCache = { ...definitions };
    }
    // A client that already holds these definitions (same hash) gets only the hash back.
    if (typeof params.hash === 'string' && params.hash.toUpperCase() === definitionsCache.hash) {
      return { hash: definitionsCache.hash };
    }
    return definitionsCache;
  },
};

/**
 * `ledger_clock` (this server's extension, admin only): reads the ledger clock, or with
 * `offset_ms` moves it to that many milliseconds behind the wall clock. The offset can only
 * shrink: ledger time never runs backward.
 */
export const ledgerClockMethod: MethodSpec = {
  admin: true,
  handler: ({ services, params }) => {
    if (params.offset_ms !== undefined) {
      if (typeof params.offset_ms !== 'number')
        throw new RpcError('invalidParams', "Invalid field 'offset_ms'.");
      try {
        services.clock.setOffset(params.offset_ms);
      } catch (err) {
        throw new RpcError('invalidParams', (err as Error).message);
      }
    }
    const now = services.clock.now();
    return { offset_ms: services.clock.offsetMs, clock_time: now, clock_time_iso: closeTimeIso(now) };
  },
};

export const ledgerAcceptMethod: MethodSpec = {
  admin: true,
  handler: ({ services, node }) => {
    services.closeLedger();
    return { ledger_current_index: node.current().header.ledger_index };
  },
};
