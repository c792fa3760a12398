import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

// The one way the web wires zod into a form (issue 41): react-hook-form with a resolver made here
// from the server's own schema in packages/shared. No form imports @hookform/resolvers itself
// (apps/web/test/architecture.test.ts checks it), so a change to how a schema's problems reach the
// fields is made once.

/**
 * A form whose fields are the request's own (the schema's names, nothing else): the submit handler
 * receives what the schema makes of them — trimmed, defaults filled, '' links dropped — which is
 * what the server will read.
 */
export const schemaResolver: typeof zodResolver = zodResolver;

/**
 * A form resolver that checks the request the form would send with the server's own zod schema
 * (conventions §1: one schema per shape). `toRequest` maps the form's fields to that request; the
 * schema's field names are the form's. `more` adds checks only the browser can make (e.g. against a
 * balance it shows); it runs when the schema found nothing wrong with that field. The submit handler
 * receives the form's own values (it builds the request again with `toRequest`).
 */
export function requestResolver<F extends FieldValues>(
  schema: Parameters<typeof zodResolver>[0],
  toRequest: (values: F) => unknown,
  more?: (values: F, errors: FieldErrors<F>) => void,
): Resolver<F> {
  const zod = zodResolver(schema);
  return async (values, context, options) => {
    const result = await zod(toRequest(values) as never, context, options as never);
    const errors = { ...result.errors } as FieldErrors<F>;
    more?.(values, errors);
    return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
  };
}

/**
 * Several checks of one form, each a resolver from this file (e.g. an import's request and, for a
 * browser wallet, its passphrase): every problem any of them finds, a later check's word on a
 * field standing over an earlier one's.
 */
export function allResolvers<F extends FieldValues>(...checks: Resolver<F>[]): Resolver<F> {
  return async (values, context, options) => {
    const results = await Promise.all(checks.map((check) => check(values, context, options)));
    const errors = Object.assign({}, ...results.map((r) => r.errors)) as FieldErrors<F>;
    return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
  };
}
