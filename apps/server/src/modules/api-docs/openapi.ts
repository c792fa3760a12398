import { z } from 'zod';
import { publicErrorSchema, type PublicRoute } from '@ledgerpad/shared';

// The OpenAPI 3.1 document of the public API (the market reads, and the platform's other public
// routes), generated from the route table: each public route that declares its documentation
// (`documented(…)` from plugins/access.ts: summary, parameters, response schema from packages/shared)
// is one operation, its path and method the route's own. zod's own z.toJSONSchema writes the schemas
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

function operation(route: PublicRoute) {
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
        '400': errorResponse('A parameter is missing or malformed; the body says which.'),
        '404': errorResponse('No such token (or no price, pool or curve for it yet).'),
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

/** The whole document, of the documented routes of the route table; built once at start-up. */
export function buildOpenApiDocument(version: string, routes: readonly PublicRoute[]) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Ledgerpad public API',
      version,
      description:
        'Market data of the tokens launched and listed on Ledgerpad, and the platform reads a client ' +
        'needs before signing in (configuration, search, order book, health, session). No session ' +
        'needed; every route is a read. Amounts and prices are decimal strings.',
    },
    // A path with two documented methods gets both operations.
    paths: routes.reduce<Record<string, Record<string, unknown>>>((paths, r) => {
      paths[r.path] = { ...paths[r.path], ...operation(r) };
      return paths;
    }, {}),
    components: { schemas: { Error: jsonSchema(publicErrorSchema) } },
  };
}
