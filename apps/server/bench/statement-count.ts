import { PGlite } from '@electric-sql/pglite';

/**
 * BENCH_SQL_COUNT=1: counts the statements PGlite runs from now until the returned function is
 * called, by text, and prints the total and the most frequent (what a burst costs the database).
 * Without the variable it does nothing.
 */
export function countStatements(label: string): () => void {
  if (!process.env.BENCH_SQL_COUNT) return () => {};
  const statements = new Map<string, number>();
  const pglite = PGlite.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = { query: pglite.query!, exec: pglite.exec! };
  for (const name of ['query', 'exec'] as const) {
    const original = originals[name];
    pglite[name] = function (this: unknown, ...args: unknown[]) {
      const text = String(args[0]).replace(/\s+/g, ' ').slice(0, 110);
      statements.set(text, (statements.get(text) ?? 0) + 1);
      return original.apply(this, args);
    };
  }
  return () => {
    Object.assign(pglite, originals);
    const sorted = [...statements].sort((a, b) => b[1] - a[1]);
    console.log(`statements during ${label}: ${sorted.reduce((n, [, c]) => n + c, 0)}`);
    for (const [text, n] of sorted.slice(0, 25)) console.log(`${String(n).padStart(6)}  ${text}`);
  };
}
