import { LEDGER_UNAVAILABLE_MESSAGE } from '@ledgerpad/shared';

// One error type for the server with a stable machine-readable code; the Fastify error handler in
// app.ts maps codes to HTTP statuses. Messages are shown to users, so they are the spec's strings.

const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  CSRF: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  BAD_GATEWAY: 502,
  LEDGER_UNAVAILABLE: 503,
  SERVICE_DISABLED: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

// One way to build each error: a builder per code. `new AppError(...)` is written only here
// (test/architecture enforces it), so a code's status and default wording live in one place.
export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError('BAD_REQUEST', message, details);
export const unauthorized = (message = 'Sign in required', details?: Record<string, unknown>) =>
  new AppError('UNAUTHORIZED', message, details);
export const forbidden = (message = 'Forbidden', details?: Record<string, unknown>) =>
  new AppError('FORBIDDEN', message, details);
export const csrfRefused = (message: string) => new AppError('CSRF', message);
export const notFound = (message = 'Not found', details?: Record<string, unknown>) =>
  new AppError('NOT_FOUND', message, details);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new AppError('CONFLICT', message, details);
export const payloadTooLarge = (message: string) => new AppError('PAYLOAD_TOO_LARGE', message);
/** A limit was hit; `retryAfter` (seconds) also becomes the Retry-After header. */
export const rateLimited = (message: string, details: { retryAfter: number } & Record<string, unknown>) =>
  new AppError('RATE_LIMITED', message, details);
/** The ledger server answered but refused the request (502). */
export const badGateway = (message: string, details?: Record<string, unknown>) =>
  new AppError('BAD_GATEWAY', message, details);
/** No ledger to talk to (503, retry later); the spec's sentence unless a feature has its own. */
export const ledgerUnavailable = (
  message: string = LEDGER_UNAVAILABLE_MESSAGE,
  details?: Record<string, unknown>,
) => new AppError('LEDGER_UNAVAILABLE', message, details);
/**
 * The one rule when the ledger is away: a route whose work needs the ledger is registered anyway and
 * answers 503 with the sentence (never a 404 for a missing route, never a made-up '0'). Routes
 * reach such a service through this: `withLedger(service).swap(…)`.
 */
export function withLedger<T>(value: T | undefined): T {
  if (value === undefined) throw ledgerUnavailable();
  return value;
}
/** A feature that is switched off or not set up on this network (503). */
export const serviceDisabled = (message: string, details?: Record<string, unknown>) =>
  new AppError('SERVICE_DISABLED', message, details);

/** An answer given before and stored (a self-custody intent's refusal), given again as it was. */
export const replayedError = (code: string | undefined, message: string, details?: Record<string, unknown>) =>
  new AppError(
    code !== undefined && code in ERROR_STATUS ? (code as ErrorCode) : 'BAD_REQUEST',
    message,
    details,
  );

/** One field problem of a validation error: a dotted path and the message shown beside the field. */
export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * A request that failed its schema. The message is the first field's message (the spec's text for
 * that field), and `fields` lists every problem so a form can mark them all.
 */
export const validationError = (fields: FieldIssue[]) =>
  new AppError('VALIDATION', fields[0]?.message ?? 'Invalid request', { fields });

/** A validation error about one field (a rule the schema alone cannot check). */
export const fieldError = (path: string, message: string) => validationError([{ path, message }]);
