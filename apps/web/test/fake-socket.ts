// A stand-in for the browser's WebSocket: records what the page sends and lets a test open, close
// and feed it frames, the way the server's socket would.
export class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static all: FakeSocket[] = [];

  readyState = FakeSocket.CONNECTING;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }

  send(data: string) {
    this.sent.push(data);
  }

  /** Closed (by either side) with this close code; 1006 is a dropped or refused connection. */
  close(code = 1006) {
    if (this.readyState === FakeSocket.CLOSED) return;
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code });
  }

  /** The server accepted the connection. */
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }

  /** A frame from the server. */
  receive(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }

  static get last(): FakeSocket {
    return FakeSocket.all[FakeSocket.all.length - 1]!;
  }
}
