import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

/**
 * A form resolver that checks the request the form would send with the server's own zod schema
 * (conventions §1: one schema per shape). `toRequest` maps the form's fields to that request; the
 * schema's field names are the form's. `more` adds checks only the browser can make (e.g. against a
 * balance it shows); it runs when the schema found nothing wrong with that field.
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
