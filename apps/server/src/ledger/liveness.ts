import type { Client } from 'xrpl';

// Is the ledger alive, and is it keeping up? A ledger process that is stopped (SIGSTOP, a hung
// event loop, a frozen VM) keeps its TCP socket open: xrpl.js sees a connected client and every
// request waits its full timeout. So the connection pings the ledger every second, and a ping left
// unanswered for `responseTimeoutMs` marks it unresponsive: the connection then drops the socket,
// which fails every pending request at once (503, ledger/errors.ts) and starts the reconnect loop,
// so later requests fail fast too until the ledger answers again. Separately, a ledger that
// answers but stops validating (lost sync, a stalled close timer) is judged by the age of the last
// validated ledger against its close cadence. docs/production.md "A hung or lagging ledger".

export interface LedgerHealth {
  /** The WebSocket is open. */
  connected: boolean;
  /** No ping is overdue. */
  responsive: boolean;
  /** The last validated ledger this connection saw (0: none yet). */
  validatedIndex: number;
  /** Milliseconds since it arrived; undefined before the first. */
  lagMs: number | undefined;
  /** The close cadence the lag is judged against; undefined when closes come only on request. */
  closeIntervalMs: number | undefined;
  /** The lag beyond which the ledger counts as stalled; undefined: no lag rule (see closeIntervalMs). */
  maxLagMs: number | undefined;
  /** The last ping's round trip. */
  pingMs: number | undefined;
  healthy: boolean;
  /** Why it is not healthy. */
  reason?: 'disconnected' | 'unresponsive' | 'lagging';
}

export interface LivenessOptions {
  /** A ping unanswered this long marks the ledger unresponsive (LEDGER_RESPONSE_TIMEOUT_MS). */
  responseTimeoutMs: number;
  /**
   * The ledger's configured close interval when this process knows it (the embedded ledger's
   * LEDGER_CLOSE_INTERVAL_MS): 0 = it closes only on request, so there is no lag to judge;
   * undefined = a ledger elsewhere, whose cadence is observed (public networks: 3–5 s).
   */
  closeIntervalMs?: number;
  /** Lagging when the last validated ledger is older than this many closes (0: no lag rule). */
  maxLagCloses: number;
  /** Told once per unanswered ping: drop the socket (the connection reconnects). */
  onUnresponsive(sinceMs: number): void;
  now?: () => number;
}

export const PING_INTERVAL_MS = 1_000;
/** How often the monitor looks; a verdict needs several looks (see tick). */
const TICK_MS = 250;
/** Looks a ping must stay unanswered through: each look is a separate turn of this process's loop. */
const MIN_TICKS_UNANSWERED = 4;
/** Cadence needs this many observed closes before the lag rule applies to a ledger elsewhere. */
const MIN_OBSERVED_INTERVALS = 4;
const OBSERVED_INTERVALS = 16;
/** The lag rule's floor: a few missed fast closes (tests' 100 ms) are not a stall. */
const MIN_MAX_LAG_MS = 3_000;
/** xrpl.js's own timeout on the ping: the monitor decides long before. */
const PING_REQUEST_TIMEOUT_MS = 60_000;

export class LedgerLiveness {
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private ping: { sentAt: number; ticks: number; reported: boolean } | undefined;
  private lastPingAt = 0;
  private pingMs: number | undefined;
  private responsive = true;
  /** The last validated ledger seen, when it arrived, and whether from the stream (not a subscribe answer). */
  private validated = { index: 0, at: 0, streamed: false };
  private readonly intervals: number[] = [];
  private readonly listeners = new Set<(health: LedgerHealth) => void>();
  private lastHealthy: boolean | undefined;

  constructor(
    private readonly client: Client,
    private readonly opts: LivenessOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  private readonly onClosed = (ev: { ledger_index: number }) => this.onValidated(ev.ledger_index, true);

  start(): void {
    if (this.timer) return;
    this.client.on('ledgerClosed', this.onClosed);
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.client.off('ledgerClosed', this.onClosed);
    this.timer = undefined;
    this.ping = undefined;
  }

  /** A new socket: nothing is overdue on it; follow the validated ledgers it streams. */
  connected(): void {
    this.ping = undefined;
    this.responsive = true;
    this.client
      .request({ command: 'subscribe', streams: ['ledger'] })
      .then((res) => {
        const index = (res.result as { ledger_index?: number }).ledger_index;
        // Known now: the lag starts again from this moment, not from before the drop.
        if (typeof index === 'number') this.onValidated(index, false);
      })
      .catch(() => undefined);
    this.emit();
  }

  disconnected(): void {
    this.ping = undefined;
    this.emit();
  }

  onChange(listener: (health: LedgerHealth) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  health(): LedgerHealth {
    const now = this.now();
    const connected = this.client.isConnected();
    const cadence = this.cadence();
    const maxLagMs =
      cadence !== undefined && this.opts.maxLagCloses > 0
        ? Math.max(MIN_MAX_LAG_MS, cadence * this.opts.maxLagCloses)
        : undefined;
    const lagMs = this.validated.at ? Math.max(0, now - this.validated.at) : undefined;
    const lagging = maxLagMs !== undefined && lagMs !== undefined && lagMs > maxLagMs;
    const reason = !connected
      ? ('disconnected' as const)
      : !this.responsive
        ? ('unresponsive' as const)
        : lagging
          ? ('lagging' as const)
          : undefined;
    return {
      connected,
      responsive: this.responsive,
      validatedIndex: this.validated.index,
      lagMs,
      closeIntervalMs: cadence,
      maxLagMs,
      pingMs: this.pingMs,
      healthy: reason === undefined,
      ...(reason ? { reason } : {}),
    };
  }

  /**
   * The cadence to judge lag by: the configured interval, or the observed one if closes come
   * slower (a loaded machine); for a ledger elsewhere the median of the last closes seen.
   */
  private cadence(): number | undefined {
    if (this.opts.closeIntervalMs === 0) return undefined;
    const observed =
      this.intervals.length >= MIN_OBSERVED_INTERVALS
        ? [...this.intervals].sort((a, b) => a - b)[Math.floor(this.intervals.length / 2)]
        : undefined;
    if (this.opts.closeIntervalMs === undefined) return observed;
    return Math.max(this.opts.closeIntervalMs, observed ?? 0);
  }

  private onValidated(index: number, streamed: boolean): void {
    const now = this.now();
    if (index <= this.validated.index && this.validated.at) return;
    // Only consecutive streamed closes measure the cadence.
    if (streamed && this.validated.streamed && index === this.validated.index + 1) {
      this.intervals.push(now - this.validated.at);
      if (this.intervals.length > OBSERVED_INTERVALS) this.intervals.shift();
    }
    this.validated = { index, at: now, streamed };
    this.emit();
  }

  /**
   * A ping counts as unanswered only after `responseTimeoutMs` AND several looks of this loop: if
   * this process itself was blocked (a long synchronous close of a ledger in this thread), the
   * answer may be waiting in the socket, read on the next turn, not lost.
   */
  private tick(): void {
    if (!this.client.isConnected()) {
      this.ping = undefined;
      return;
    }
    const now = this.now();
    const ping = this.ping;
    if (ping) {
      ping.ticks += 1;
      const waited = now - ping.sentAt;
      if (!ping.reported && ping.ticks >= MIN_TICKS_UNANSWERED && waited >= this.opts.responseTimeoutMs) {
        ping.reported = true;
        this.responsive = false;
        this.emit();
        this.opts.onUnresponsive(waited);
      }
    } else if (now - this.lastPingAt >= PING_INTERVAL_MS) {
      this.sendPing(now);
    }
    this.emit();
  }

  private sendPing(now: number): void {
    const ping = { sentAt: now, ticks: 0, reported: false };
    this.ping = ping;
    this.lastPingAt = now;
    this.client.connection.request({ command: 'ping' }, PING_REQUEST_TIMEOUT_MS).then(
      () => {
        if (this.ping !== ping) return;
        this.ping = undefined;
        this.pingMs = this.now() - ping.sentAt;
        this.responsive = true;
        this.emit();
      },
      () => {
        if (this.ping === ping) this.ping = undefined;
      },
    );
  }

  /** Tells listeners when the verdict changes. */
  private emit(): void {
    if (this.listeners.size === 0) return;
    const health = this.health();
    if (health.healthy === this.lastHealthy) return;
    this.lastHealthy = health.healthy;
    for (const listener of this.listeners) {
      try {
        listener(health);
      } catch {
        // A listener's failure is its own.
      }
    }
  }
}
