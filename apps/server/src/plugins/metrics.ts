import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { safeEqual } from '../lib/crypto';
import type { XrplConnection } from '../ledger/connection';
import type { SubmissionService } from '../ledger/submission-service';

// Prometheus metrics (docs/production.md): prom-client, one registry per app (tests build several
// apps in one process). Request rate and latency by route template, the ledger connection and how
// old the last validated ledger is, the indexer's lag, the job queue, the submission states and
// the open sockets. Database-backed gauges are read when scraped, so they are the cluster's view
// (any instance answers the same); counters are this instance's.

export const METRICS_PATH = '/metrics';

export interface MetricsDeps {
  config: Pick<Config, 'METRICS_TOKEN' | 'METRICS_PORT'>;
  database: Database;
  connection?: XrplConnection;
  submissions?: SubmissionService;
  /** Open sockets on this instance. */
  socketCount: () => number;
}

export interface Metrics {
  registry: Registry;
  /** The text exposition (the separate metrics port serves it too). */
  render(): Promise<{ contentType: string; body: string }>;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function registerMetrics(app: FastifyInstance, deps: MetricsDeps): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ app: 'ledgerpad' });
  // Node's process metrics (event-loop delay monitor, GC observer) only where metrics are served:
  // a test process builds dozens of apps.
  if (deps.config.METRICS_TOKEN || deps.config.METRICS_PORT !== undefined) {
    collectDefaultMetrics({ register: registry });
  }

  const requests = new Counter({
    name: 'ledgerpad_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'ledgerpad_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route template, never the raw URL: ids and tokens would make unbounded label sets.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === METRICS_PATH) return;
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  // The ledger: connected, answering, the last validated ledger and how long ago it arrived, and
  // the bound /api/health judges that lag by (ledger/liveness.ts).
  const health = () => deps.connection?.health();
  const validatedIndex = () => Math.max(health()?.validatedIndex ?? 0, deps.submissions?.ledgerIndex ?? 0);
  const ledgerGauge = (name: string, help: string, value: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(value());
      },
    });
  const secondsOr = (ms: number | undefined, none: number) => (ms === undefined ? none : ms / 1000);
  ledgerGauge('ledgerpad_ledger_connected', '1 while the ledger connection is up', () =>
    deps.connection?.isConnected() ? 1 : 0,
  );
  ledgerGauge(
    'ledgerpad_ledger_healthy',
    '1 while the ledger is connected, answers pings in time and its validated ledger is not lagging (as /api/health)',
    () => (health()?.healthy ? 1 : 0),
  );
  ledgerGauge(
    'ledgerpad_ledger_responsive',
    '1 unless a ping to the ledger is overdue (LEDGER_RESPONSE_TIMEOUT_MS)',
    () => (health()?.responsive ? 1 : 0),
  );
  ledgerGauge(
    'ledgerpad_ledger_ping_seconds',
    'Round trip of the last answered ledger ping (-1: none yet)',
    () => secondsOr(health()?.pingMs, -1),
  );
  ledgerGauge(
    'ledgerpad_ledger_validated_index',
    'The last validated ledger this instance saw',
    validatedIndex,
  );
  ledgerGauge(
    'ledgerpad_ledger_validated_lag_seconds',
    'Seconds since this instance last saw a validated ledger (grows while the ledger stalls or is unreachable)',
    () => secondsOr(health()?.lagMs, -1),
  );
  ledgerGauge(
    'ledgerpad_ledger_validated_lag_max_seconds',
    'The lag beyond which the ledger counts as stalled: LEDGER_MAX_LAG_CLOSES closes at the ledger’s cadence (-1: no bound, closes on request)',
    () => secondsOr(health()?.maxLagMs, -1),
  );
  ledgerGauge(
    'ledgerpad_ledger_close_interval_seconds',
    'The close cadence the lag is judged by: configured for the embedded ledger, observed otherwise (-1: unknown)',
    () => secondsOr(health()?.closeIntervalMs, -1),
  );

  const query = <T extends Record<string, unknown>>(text: string) => deps.database.sql.query<T>(text);

  new Gauge({
    name: 'ledgerpad_indexer_lag_ledgers',
    help: 'Validated ledgers not indexed yet (validated index minus the indexer cursor)',
    registers: [registry],
    async collect() {
      const [row] = await query<{ last: number | null }>(
        'select max(last_ledger)::int as last from ledger_cursor',
      );
      const validated = validatedIndex();
      this.set(validated && row?.last ? Math.max(0, validated - Number(row.last)) : 0);
    },
  });

  const jobStatuses = ['queued', 'running'] as const;
  new Gauge({
    name: 'ledgerpad_jobs',
    help: 'Jobs waiting or running, by status and type',
    labelNames: ['status', 'type'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const s of jobStatuses) this.set({ status: s, type: 'all' }, 0);
      const rows = await query<{ status: string; type: string; n: number }>(
        "select status, type, count(*)::int as n from jobs where status in ('queued', 'running') group by status, type",
      );
      const totals: Record<string, number> = {};
      for (const r of rows) {
        this.set({ status: r.status, type: r.type }, Number(r.n));
        totals[r.status] = (totals[r.status] ?? 0) + Number(r.n);
      }
      for (const s of jobStatuses) this.set({ status: s, type: 'all' }, totals[s] ?? 0);
    },
  });
  new Gauge({
    name: 'ledgerpad_jobs_oldest_queued_age_seconds',
    help: 'Age of the oldest job that is due and still queued (0 when none)',
    registers: [registry],
    async collect() {
      const [row] = await query<{ age: number | null }>(
        "select extract(epoch from (now() - min(run_after)))::float8 as age from jobs where status = 'queued' and run_after <= now()",
      );
      this.set(row?.age ? Math.max(0, Number(row.age)) : 0);
    },
  });

  new Gauge({
    name: 'ledgerpad_submissions_open',
    help: 'Ledger transactions recorded and not final yet, by state (pending: signed, not sent; submitted)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      this.set({ status: 'pending' }, 0);
      this.set({ status: 'submitted' }, 0);
      const rows = await query<{ status: string; n: number }>(
        "select status, count(*)::int as n from ledger_submissions where status in ('pending', 'submitted') group by status",
      );
      for (const r of rows) this.set({ status: r.status }, Number(r.n));
    },
  });
  const finalized = new Counter({
    name: 'ledgerpad_submissions_finalized_total',
    help: 'Ledger transactions this instance saw reach a final state, by state and purpose',
    labelNames: ['status', 'purpose'] as const,
    registers: [registry],
  });
  const unsubscribe = deps.submissions?.onFinalized((row) =>
    finalized.inc({ status: row.status, purpose: row.purpose }),
  );
  if (unsubscribe) app.addHook('onClose', async () => void unsubscribe());

  new Gauge({
    name: 'ledgerpad_sockets',
    help: 'Open live sockets on this instance',
    registers: [registry],
    collect() {
      this.set(deps.socketCount());
    },
  });

  const render = async () => ({ contentType: registry.contentType, body: await registry.metrics() });

  // On the main port only with a token (Authorization: Bearer …); the separate METRICS_PORT
  // (main.ts) needs none, as it is bound to an internal address.
  const token = deps.config.METRICS_TOKEN;
  if (token) {
    app.get(METRICS_PATH, { config: { access: 'public', rateLimit: false } }, async (request, reply) => {
      const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!safeEqual(given, token)) {
        return reply.code(401).header('www-authenticate', 'Bearer').send({
          error: 'unauthorized',
          message: 'Metrics need the METRICS_TOKEN as a bearer token',
        });
      }
      const { contentType, body } = await render();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    });
  }
  return { registry, render };
}
