import { PGlite } from '@electric-sql/pglite';

/**
 * PGlite's synchronous time per statement text from now until the returned function is called,
 * which prints the total and the 40 costliest (issue 40's profiling, bench/hot-profile.ts), each text
 * cut at HOT_SQL_CHARS characters (140; more to tell statements of one table apart). Every
 * statement passes through `execProtocolRawSync` as protocol messages: a Parse (or simple Query)
 * message names the text, and the Bind/Execute/Sync after it are counted to it. Wall time inside the
 * synchronous call: on a loaded machine it also counts the time the thread was not on a core.
 */
export function timeStatements(label: string): () => void {
  const stats = new Map<string, { n: number; ms: number }>();
  const proto = PGlite.prototype as unknown as { execProtocolRawSync: (...args: unknown[]) => unknown };
  const original = proto.execProtocolRawSync;
  let current = '?';
  let total = 0;
  const text = (bytes: Uint8Array) =>
    Buffer.from(bytes)
      .toString()
      .replace(/\s+/g, ' ')
      .slice(0, Number(process.env.HOT_SQL_CHARS ?? 140));
  proto.execProtocolRawSync = function (this: unknown, ...args: unknown[]) {
    const msg = args[0] as Uint8Array;
    const parse = msg[0] === 0x50; // 'P': int32 length, statement name, query text (C strings)
    const query = msg[0] === 0x51; // 'Q': int32 length, query text
    if (parse) {
      let i = 5;
      while (msg[i] !== 0) i++;
      const start = ++i;
      while (i < msg.length && msg[i] !== 0) i++;
      current = text(msg.subarray(start, i));
    } else if (query) current = text(msg.subarray(5, Math.min(msg.length - 1, 200)));
    const t0 = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      const ms = performance.now() - t0;
      total += ms;
      const s = stats.get(current) ?? { n: 0, ms: 0 };
      s.ms += ms;
      if (parse || query) s.n++;
      stats.set(current, s);
    }
  };
  return () => {
    proto.execProtocolRawSync = original;
    const n = [...stats.values()].reduce((a, s) => a + s.n, 0);
    console.log(`PGlite during ${label}: ${n} statements, ${total.toFixed(0)} ms`);
    for (const [t, s] of [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 40))
      console.log(`${s.ms.toFixed(0).padStart(7)} ms ${String(s.n).padStart(6)}  ${t}`);
  };
}
