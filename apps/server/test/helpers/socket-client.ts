import WebSocket from 'ws';
import { until } from './wait';

export interface Frame {
  event: string;
  data: Record<string, unknown>;
}

/** A test WebSocket client that queues frames so tests can await the next one. */
export class TestSocket {
  readonly frames: Frame[] = [];
  private waiters: Array<() => void> = [];
  closed: { code: number } | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(String(data)) as Frame);
      this.wake();
    });
    ws.on('close', (code) => {
      this.closed = { code };
      this.wake();
    });
  }

  /** Opens a socket; rejects with the HTTP status when the server refuses the upgrade. */
  static open(url: string, headers: Record<string, string> = {}): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      const socket = new TestSocket(ws);
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (req, res) => {
        // Free the refused connection so the server can close without waiting for it.
        req.destroy();
        reject(new Error(`HTTP ${res.statusCode}`));
      });
      ws.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The next frame not yet taken (optionally of one event), waiting up to `timeoutMs`. */
  async next(event?: string, timeoutMs = 3000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.frames.findIndex((f) => !event || f.event === event);
      if (i >= 0) return this.frames.splice(i, 1)[0]!;
      if (this.closed)
        throw new Error(`socket closed (${this.closed.code}) while waiting for ${event ?? 'a frame'}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${event ?? 'a frame'}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * The next frame of `event` whose data satisfies `match` (frames before it that do not match are
   * taken and dropped), waiting up to `timeoutMs` in all.
   */
  async nextMatching(
    event: string,
    match: (data: Record<string, unknown>) => boolean,
    timeoutMs = 3000,
  ): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const frame = await this.next(event, Math.max(1, deadline - Date.now()));
      if (match(frame.data)) return frame;
    }
  }

  /** Resolves when the server closes the socket. */
  async waitClosed(timeoutMs = 5000): Promise<{ code: number }> {
    return until(() => this.closed, { timeoutMs, what: 'the server to close the socket' });
  }

  close(): void {
    this.ws.terminate();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
