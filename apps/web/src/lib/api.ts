// The one typed HTTP client of the web app. Requests carry the session cookie; state-changing calls
// carry the session's CSRF token. Failures surface as ApiError so callers decide what the user sees
// (spec: most fetch failures are silent; a network failure reads 'Network Error').

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
    /** Seconds from a Retry-After header (429 and other limits), when the server sent one. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

interface RequestOptions {
  signal?: AbortSignal;
  /** Public calls go without cookies (spec's "public client"). */
  credentials?: boolean;
  /** Extra request headers; they cannot replace the CSRF or content headers. */
  headers?: Record<string, string>;
  /**
   * The user action's Idempotency-Key (lib/ledger-action.ts): the server does a retried request with
   * the same key once.
   */
  idempotencyKey?: string;
}

async function send<T>(method: string, path: string, body: unknown, init: RequestOptions): Promise<T> {
  return (await exchange<T>(method, path, body, init)).body;
}

async function exchange<T>(
  method: string,
  path: string,
  body: unknown,
  init: RequestOptions,
): Promise<{ body: T; headers: Headers }> {
  const headers: Record<string, string> = { ...init.headers, accept: 'application/json' };
  if (init.idempotencyKey) headers['idempotency-key'] = init.idempotencyKey;
  // A FormData body (multipart uploads) sets its own content type with the boundary.
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers['content-type'] = 'application/json';
  // Public calls carry no session, so there is nothing to forge and no token to ask for (a visitor
  // asking for one would get a 401 on every stats round).
  if (method !== 'GET' && method !== 'HEAD' && init.credentials !== false) {
    const token = await getCsrfToken();
    if (token) headers['x-csrf-token'] = token;
  }
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: init.credentials === false ? 'omit' : 'include',
      headers,
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      signal: init.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'Network Error');
  }
  const parsed: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    if (res.status === 403 && (parsed as { error?: string } | undefined)?.error === 'csrf')
      csrfToken = undefined;
    const message = (parsed as { message?: string } | undefined)?.message ?? res.statusText;
    const retryAfter = Number(res.headers.get('retry-after') ?? Number.NaN);
    throw new ApiError(res.status, message, parsed, Number.isFinite(retryAfter) ? retryAfter : undefined);
  }
  return { body: parsed as T, headers: res.headers };
}

export const apiGet = <T>(path: string, init: RequestOptions = {}) => send<T>('GET', path, undefined, init);

/** The next page a paged list names (`Link: <…>; rel="next"`, docs/paging.md), if any. */
const nextPage = (headers: Headers): string | undefined =>
  /<([^>]+)>;\s*rel="next"/.exec(headers.get('link') ?? '')?.[1];

/**
 * Every row of a paged list: follows `Link: rel="next"` from page to page (at most `maxPages`, so a
 * list that keeps growing cannot keep the screen waiting). `rows` picks the list out of a page
 * (the page itself for the spec's plain arrays); the first page's other fields are kept.
 */
export async function apiGetAllPages<T, Row>(
  path: string,
  rows: (page: T) => Row[],
  join: (first: T, all: Row[]) => T,
  init: RequestOptions = {},
  maxPages = 20,
): Promise<T> {
  const first = await exchange<T>('GET', path, undefined, init);
  const all = [...rows(first.body)];
  let next = nextPage(first.headers);
  for (let n = 1; next && n < maxPages; n++) {
    const page = await exchange<T>('GET', next, undefined, init);
    all.push(...rows(page.body));
    next = nextPage(page.headers);
  }
  return join(first.body, all);
}

/** Every row of a paged list that is a plain array (the spec's shape for most lists). */
export const apiGetAll = <Row>(path: string, init: RequestOptions = {}) =>
  apiGetAllPages<Row[], Row>(
    path,
    (page) => page,
    (_first, all) => all,
    init,
  );
export const apiPost = <T>(path: string, body?: unknown, init: RequestOptions = {}) =>
  send<T>('POST', path, body ?? {}, init);
export const apiPut = <T>(path: string, body?: unknown, init: RequestOptions = {}) =>
  send<T>('PUT', path, body ?? {}, init);
/** multipart/form-data (POST /api/upload); the CSRF token goes in the header. */
export const apiPostForm = <T>(path: string, body: FormData, init: RequestOptions = {}) =>
  send<T>('POST', path, body, init);
/** DELETE carries no body (Fastify refuses an empty JSON body with a content type). */
export const apiDelete = <T>(path: string, init: RequestOptions = {}) =>
  send<T>('DELETE', path, undefined, init);

// The CSRF token is bound to the session: fetched once per session, dropped at sign-in/out.
let csrfToken: string | undefined;

async function getCsrfToken(): Promise<string | undefined> {
  if (csrfToken) return csrfToken;
  try {
    const res = await fetch('/api/csrf-token', {
      credentials: 'include',
      headers: { accept: 'application/json' },
    });
    // 204: no session yet (a sign-in's own request), so no token to send.
    if (!res.ok || res.status === 204) return undefined;
    csrfToken = ((await res.json()) as { token: string }).token;
    return csrfToken;
  } catch {
    return undefined;
  }
}

export function resetCsrfToken(): void {
  csrfToken = undefined;
}

/** A route this server does not have (e.g. the faucet on mainnet): Fastify's own 404, not ours. */
export const isMissingRoute = (err: unknown): boolean =>
  err instanceof ApiError && err.status === 404 && err.message.startsWith('No API route');

/** The call failed with this HTTP status (0: the network). For choices that depend on it, not for text. */
export const hasStatus = (err: unknown, ...statuses: number[]): boolean =>
  err instanceof ApiError && statuses.includes(err.status);

/**
 * What to tell the user when a call failed — the one error-to-message rule of the web app; features
 * never read an ApiError's message or body themselves (test/architecture.test.ts checks).
 *
 * The server's own sentence when it wrote one for people: a 4xx, or a 502/503 (they say the ledger
 * is unreachable). Otherwise `fallback` (the spec's text): unknown routes ('No API route …'), network
 * failures and 5xx internals never reach the screen. Without a fallback: the server's sentence or
 * undefined (for a reason shown under a heading). With `lead`, the fallback leads and the server's
 * sentence follows it ("Save failed: …"), unless the sentence already starts with the fallback.
 */
export function userMessage(err: unknown, fallback: string, opts?: { lead?: boolean }): string;
export function userMessage(err: unknown): string | undefined;
export function userMessage(
  err: unknown,
  fallback?: string,
  opts: { lead?: boolean } = {},
): string | undefined {
  const reason = serverSentence(err);
  if (fallback === undefined) return reason;
  if (!reason) return fallback;
  if (!opts.lead || !fallback || reason.startsWith(fallback)) return reason;
  return `${fallback}: ${reason}`;
}

/**
 * Errors of the signing step written for people (lib/signer): a cancelled passphrase prompt, a
 * wallet app that refused or is on another account, a key that could not be read.
 */
const SIGNING_ERRORS = new Set([
  'SigningCancelledError',
  'WalletAppError',
  'InvalidKeyError',
  'WrongPassphraseError',
]);

function serverSentence(err: unknown): string | undefined {
  if (err instanceof Error && SIGNING_ERRORS.has(err.name)) return err.message;
  if (!(err instanceof ApiError) || err.status === 0) return undefined;
  const readable = (err.status >= 400 && err.status < 500) || err.status === 502 || err.status === 503;
  // Only what our server wrote in its JSON body (a proxy's 'Bad Gateway' page is not a sentence).
  const written = (err.body as { message?: unknown } | undefined)?.message === err.message;
  if (!readable || !written || !err.message || isMissingRoute(err)) return undefined;
  return err.message;
}

/** The answer was final (the server decided): a retry of the same request would get the same answer. */
export const isFinalAnswer = (err: unknown): boolean =>
  err instanceof ApiError &&
  err.status >= 400 &&
  err.status < 500 &&
  err.status !== 408 &&
  err.status !== 429;
