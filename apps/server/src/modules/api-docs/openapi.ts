import { z } from 'zod';
import { publicErrorSchema, type PublicRoute } from '@ledgerpad/shared';
import type { ApiRoute } from '../../plugins/access';
import { CSRF_HEADER } from '../../plugins/csrf';

// The OpenAPI 3.1 document of the API, generated from the route table: each /api route that declares
// its documentation is one operation, its path and method the route's own — a public route its
// catalogue entry (`documented(…)` from plugins/access.ts), every other route its own summary, body
// and response schemas from packages/shared (`declared(…)`, issue 41), with its security: the session
// cookie, and the CSRF header on a write. zod's own z.toJSONSchema writes the schemas
// (zod 4 speaks JSON Schema draft 2020-12, which OpenAPI 3.1 uses as is): no generator dependency,
// and the document cannot drift from the routes nor from the schemas the test validates with.

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output' = 'output') => {
  // `io: 'output'`: what the server sends (a request body: 'input', what a client may send); the
  // $schema line is the document's, not each schema's.
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** A route of the table that declares its documentation. */
export type DocumentedRoute = Pick<ApiRoute, 'access' | 'csrf'> & { docs: PublicRoute };

/** Who may call it, as OpenAPI says it: nothing for a public route, the session (and CSRF on a write). */
function security({ access, csrf }: DocumentedRoute) {
  if (access === 'public') return {};
  return { security: [csrf ? { session: [], csrf: [] } : { session: [] }] };
}

function refusals({ access }: DocumentedRoute) {
  if (access === 'public') return {};
  return {
    '401': errorResponse('No session: sign in first.'),
    '403': errorResponse(
      access === 'admin'
        ? 'The signed-in user is not an admin (or the CSRF token is missing).'
        : 'Not yours, or the CSRF token is missing.',
    ),
  };
}

function operation(documented: DocumentedRoute) {
  const route = documented.docs;
  const parameters = [
    ...route.parameters.map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required,
      schema: { type: 'string' },
    })),
    ...(route.paged
      ? ['limit', 'offset'].map((name) => ({
          name,
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 0 },
        }))
      : []),
  ];
  return {
    [route.method ?? 'get']: {
      summary: route.summary,
      ...(documented.access === 'admin' ? { tags: ['admin'] } : {}),
      ...security(documented),
      parameters,
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
            },
          }
        : {}),
      responses: {
        '200': {
          description: route.summary,
          content: { 'application/json': { schema: jsonSchema(route.response) } },
        },
        ...(route.accepted
          ? {
              '202': {
                description: 'Accepted: the work started (follow it at GET /api/job-status/{jobId}).',
                content: { 'application/json': { schema: jsonSchema(route.accepted) } },
              },
            }
          : {}),
        '400': errorResponse('A parameter is missing or malformed; the body says which.'),
        ...refusals(documented),
        '404': errorResponse('No such token (or no price, pool or curve for it yet).'),
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

/** The whole document, of the documented routes of the route table; built once at start-up. */
export function buildOpenApiDocument(version: string, routes: readonly DocumentedRoute[]) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Ledgerpad API',
      version,
      description:
        'Market data of the tokens launched and listed on Ledgerpad and the platform reads a client ' +
        'needs before signing in (configuration, search, order book, health, session) need no session. ' +
        'The other routes act for the signed-in user (session cookie; a write also sends the CSRF ' +
        'token of GET /api/csrf-token) or an admin. Amounts and prices are decimal strings.',
    },
    // A path with two documented methods gets both operations.
    paths: routes.reduce<Record<string, Record<string, unknown>>>((paths, r) => {
      paths[r.docs.path] = { ...paths[r.docs.path], ...operation(r) };
      return paths;
    }, {}),
    components: {
      schemas: { Error: jsonSchema(publicErrorSchema) },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'ledgerpad_session',
          description:
            'The session cookie of a sign-in (`__Host-ledgerpad_session` over HTTPS in production).',
        },
        csrf: {
          type: 'apiKey',
          in: 'header',
          name: CSRF_HEADER,
          description: "The session's CSRF token (GET /api/csrf-token), on every write.",
        },
      },
    },
  };
}
