// The event bus behind the live socket: modules publish, socket hubs subscribe. Two
// implementations with one contract: in-process (one server) and PostgreSQL LISTEN/NOTIFY (events
// published on any instance reach subscribers on every instance, including the publisher's own).

export type EventHandler = (payload: unknown) => void;

export interface EventBus {
  readonly kind: 'memory' | 'postgres';
  /** Resolves once the event is handed to the transport (not when subscribers have run). */
  publish(topic: string, payload: unknown): Promise<void>;
  /** Returns the unsubscribe function. Handlers run asynchronously, never inside publish(). */
  subscribe(topic: string, handler: EventHandler): () => void;
  close(): Promise<void>;
}

/** Topic → handlers, shared by both implementations for local dispatch. */
export class TopicRegistry {
  private readonly topics = new Map<string, Set<EventHandler>>();

  constructor(private readonly onHandlerError: (err: unknown, topic: string) => void) {}

  add(topic: string, handler: EventHandler): () => void {
    let set = this.topics.get(topic);
    if (!set) {
      set = new Set();
      this.topics.set(topic, set);
    }
    set.add(handler);
    return () => {
      const current = this.topics.get(topic);
      if (!current) return;
      current.delete(handler);
      if (current.size === 0) this.topics.delete(topic);
    };
  }

  has(topic: string): boolean {
    return this.topics.has(topic);
  }

  dispatch(topic: string, payload: unknown): void {
    const set = this.topics.get(topic);
    if (!set) return;
    for (const handler of [...set]) {
      try {
        handler(payload);
      } catch (err) {
        this.onHandlerError(err, topic);
      }
    }
  }

  clear(): void {
    this.topics.clear();
  }
}

export function createMemoryBus(onHandlerError: (err: unknown, topic: string) => void = () => {}): EventBus {
  const registry = new TopicRegistry(onHandlerError);
  let closed = false;
  return {
    kind: 'memory',
    async publish(topic, payload) {
      if (closed) throw new Error('event bus is closed');
      // Asynchronous like the PostgreSQL bus, so callers can't come to depend on re-entrancy.
      queueMicrotask(() => registry.dispatch(topic, payload));
    },
    subscribe: (topic, handler) => registry.add(topic, handler),
    async close() {
      closed = true;
      registry.clear();
    },
  };
}
