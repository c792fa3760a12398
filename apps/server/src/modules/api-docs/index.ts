// The public API's OpenAPI document (GET /api/docs; docs/api-docs.md).
export { registerApiDocs } from './routes';
