import type { z } from 'zod';
import { validationError, type FieldIssue } from './errors';

/** Parses request input with a shared zod schema; failures become one VALIDATION AppError. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw validationError(zodIssues(result.error));
}

export function zodIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}
