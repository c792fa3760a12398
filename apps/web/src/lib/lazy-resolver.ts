import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A form resolver loaded on its first use (a submit): for a form on a first screen — the landing
 * page's demo sign-in — whose check is the server's zod schema, so zod and its resolver (~30 KB
 * gzip) load when someone signs in, not with the landing list (issue 40). Same checks, same
 * messages: `load` gives the resolver lib/form-resolver.ts makes.
 */
export function lazyResolver<F extends FieldValues>(load: () => Promise<Resolver<F>>): Resolver<F> {
  let loaded: Promise<Resolver<F>> | undefined;
  return async (values, context, options) => {
    loaded ??= load().catch((err: unknown) => {
      loaded = undefined; // a failed chunk load is tried again at the next submit
      throw err;
    });
    return (await loaded)(values, context, options);
  };
}
