import type { z } from 'zod';
import { validationError, type FieldIssue } from './errors';

/**
 * What a shared schema parses to: the type a service method takes. Routes parse at the edge
 * (`parseInput`); services never see `unknown` input (test/architecture enforces it).
 */
export type Parsed<S extends z.ZodType> = z.output<S>;

/** Parses request input with a shared zod schema; failures become one VALIDATION AppError. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw validationError(zodIssues(result.error));
}

function zodIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}
