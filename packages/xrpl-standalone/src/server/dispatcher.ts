// Request routing and rippled's envelopes: WebSocket ({id, status, type, result, api_version}) and
// JSON-RPC over HTTP ({result: {..., status}}). No request, however malformed, escapes as an
// exception: everything becomes an error envelope.
import type { JsonObject } from '../core/contract';
import type { MethodContext, ServerServices } from './context';
import { RpcError } from './errors';
import { methods } from './methods';
import { isObject } from './params';
import type { Subscriber } from './subscriptions';
import type { ApiVersion } from './tx-format';

const SECRET_FIELDS = ['secret', 'seed', 'seed_hex', 'passphrase'];

/** rippled's RPC::getAPIVersionNumber: absent → 1; 1..2 supported (3 is beta-only there). */
export function readApiVersion(value: unknown): ApiVersion | 'invalid' {
  if (value === undefined) return 1;
  if (value === 1 || value === 2) return value;
  return 'invalid';
}

function errorFields(error: RpcError): JsonObject {
  return { ...error.extra, error: error.error, error_code: error.errorCode, error_message: error.message };
}

function redact(request: JsonObject): JsonObject {
  const copy = { ...request };
  for (const field of SECRET_FIELDS) delete copy[field];
  return copy;
}

type Outcome = { ok: true; result: JsonObject } | { ok: false; error: JsonObject };

function failure(command: string, err: unknown): Outcome {
  if (err instanceof RpcError) return { ok: false, error: errorFields(err) };
  console.error(`xrpl-standalone: ${command} failed`, err);
  return { ok: false, error: errorFields(new RpcError('internal')) };
}

/**
 * Runs one command: its result, or rippled's error fields (`error` present). Synchronous handlers
 * (nearly all) answer synchronously: no promise per request on the hot path.
 */
export function runCommand(
  services: ServerServices,
  command: string,
  params: JsonObject,
  apiVersion: ApiVersion,
  subscriber?: Subscriber,
): Outcome | Promise<Outcome> {
  const spec = Object.hasOwn(methods, command) ? methods[command] : undefined;
  if (!spec) return { ok: false, error: errorFields(new RpcError('unknownCmd')) };
  const ctx: MethodContext = { services, node: services.node, params, apiVersion, admin: true, subscriber };
  try {
    if (spec.admin && !ctx.admin) throw new RpcError('noPermission');
    const result = spec.handler(ctx);
    if (result instanceof Promise) {
      return result.then(
        (value): Outcome => ({ ok: true, result: value }),
        (err: unknown) => failure(command, err),
      );
    }
    return { ok: true, result };
  } catch (err) {
    return failure(command, err);
  }
}

/** rippled's WebSocket envelope around a freshly built body: id and api_version echoed, type last. */
function wsEnvelope(request: JsonObject, body: JsonObject): JsonObject {
  if (request.id !== undefined) body.id = request.id;
  if (request.api_version !== undefined) body.api_version = request.api_version;
  body.type = 'response';
  return body;
}

function wsOutcome(request: JsonObject, outcome: Outcome): JsonObject {
  if (!outcome.ok)
    return wsEnvelope(request, { ...outcome.error, request: redact(request), status: 'error' });
  return wsEnvelope(request, { result: outcome.result, status: 'success' });
}

/** One WebSocket text frame in, one response object out (a promise only for asynchronous handlers). */
export function handleWsMessage(
  services: ServerServices,
  text: string,
  subscriber: Subscriber,
): JsonObject | Promise<JsonObject> {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    request = undefined;
  }
  if (!isObject(request)) {
    return { error: 'jsonInvalid', status: 'error', type: 'response', value: text };
  }
  const command = request.command ?? request.method;
  if (command === undefined) {
    return wsEnvelope(request, { error: 'missingCommand', request: redact(request), status: 'error' });
  }
  const apiVersion = readApiVersion(request.api_version);
  if (apiVersion === 'invalid') {
    return wsEnvelope(request, { error: 'invalid_API_version', request: redact(request), status: 'error' });
  }
  if (typeof command !== 'string') {
    return wsEnvelope(request, {
      ...errorFields(new RpcError('unknownCmd')),
      request: redact(request),
      status: 'error',
    });
  }
  const outcome = runCommand(services, command, request, apiVersion, subscriber);
  return outcome instanceof Promise
    ? outcome.then((value) => wsOutcome(request, value))
    : wsOutcome(request, outcome);
}

/** A JSON-RPC POST body in; HTTP status and body out (rippled answers 400 with text for unparseable input). */
export async function handleJsonRpc(
  services: ServerServices,
  text: string,
): Promise<{ status: number; body: string; json: boolean }> {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return { status: 400, body: 'Unable to parse request: invalid JSON', json: false };
  }
  if (!isObject(request)) return { status: 400, body: 'Unable to parse request: not an object', json: false };
  const method = request.method;
  if (method === undefined || method === null) return { status: 400, body: 'Null method', json: false };
  if (typeof method !== 'string') return { status: 400, body: 'method is not string', json: false };
  if (method === '') return { status: 400, body: 'method is empty', json: false };
  let params: JsonObject = {};
  if (request.params !== undefined && request.params !== null) {
    const p = request.params;
    if (!Array.isArray(p) || p.length > 1 || (p.length === 1 && !isObject(p[0]))) {
      return { status: 400, body: 'params unparseable', json: false };
    }
    params = (p[0] as JsonObject | undefined) ?? {};
  }
  const respond = (result: JsonObject): { status: number; body: string; json: boolean } => {
    const body: JsonObject = { result };
    if (request.id !== undefined) body.id = request.id;
    if (request.jsonrpc !== undefined) body.jsonrpc = request.jsonrpc;
    return { status: 200, body: JSON.stringify(body), json: true };
  };
  const apiVersion = readApiVersion(params.api_version);
  if (apiVersion === 'invalid') {
    return respond({
      error: 'invalid_API_version',
      request: { ...redact(params), command: method },
      status: 'error',
    });
  }
  if (method === 'subscribe' || method === 'unsubscribe') {
    return respond({
      ...errorFields(new RpcError('noEvents')),
      request: { ...redact(params), command: method },
      status: 'error',
    });
  }
  const outcome = await runCommand(services, method, params, apiVersion);
  if (!outcome.ok)
    return respond({ ...outcome.error, request: { ...redact(params), command: method }, status: 'error' });
  return respond({ ...outcome.result, status: 'success' });
}
