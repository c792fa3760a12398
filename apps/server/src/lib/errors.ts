// One error type for the server with a stable machine-readable code; the Fastify error handler in
// app.ts maps codes to HTTP statuses. Messages are shown to users, so they are the spec's strings.

export const ERROR_STATUS = {
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

export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', message);
export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError('BAD_REQUEST', message, details);
export const unauthorized = (message = 'Sign in required') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message = 'Forbidden') => new AppError('FORBIDDEN', message);

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
