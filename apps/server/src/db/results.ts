// Small readers of what the database drivers answer, shared by the modules that write raw SQL.

/** drizzle's execute answers `{ rows }` on node-postgres and PGlite alike; an array on some drivers. */
export function rowsOf<T>(res: unknown): T[] {
  if (Array.isArray(res)) return res as T[];
  return ((res as { rows?: T[] }).rows ?? []) as T[];
}

/** The SQLSTATE of a database error (23505: unique violation), looking through drizzle's wrappers. */
export function pgErrorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
