// Request routing and rippled's envelopes: WebSocket ({id, status, type, result, api_version}) and
// JSON-RPC over HTTP ({result: {..., status}}). No request, however malformed, escapes as an
// exception: everything becomes an error envelope.
import type { JsonObject, PreparedSubmission } from '../core/contract';
import { isAdmin, LOCAL_CALLER, type Caller } from './access';
import type { MethodContext, ServerServices } from './context';
import { RpcError } from './errors';
import { methods } from './methods';
import { isObject } from './params';
import type { Subscriber } from './subscriptions';
import type { ApiVersion } from './tx-format';

// Never echoed back in an error's `request` (rippled masks the first four; the admin password too).
const SECRET_FIELDS = ['secret', 'seed', 'seed_hex', 'passphrase', 'admin_user', 'admin_password'];

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

/** An admin command (rippled's Role::ADMIN) asked for by a caller who is not admin. */
function forbidden(services: ServerServices, command: string, params: JsonObject, caller: Caller): boolean {
  const spec = Object.hasOwn(methods, command) ? methods[command] : undefined;
  return spec?.admin === true && !isAdmin(caller, params, services.access);
}

/**
 * Runs one command: its result, or rippled's error fields (`error` present). Synchronous handlers
 * (nearly all) answer synchronously: no promise per request on the hot path. `caller` decides
 * admin (access.ts): an admin command from anyone else is rippled's `forbidden` ("Bad
 * credentials."), an admin-only option of an open command its `noPermission`.
 */
export function runCommand(
  services: ServerServices,
  command: string,
  params: JsonObject,
  apiVersion: ApiVersion,
  caller: Caller,
  subscriber?: Subscriber,
  prepared?: PreparedSubmission,
): Outcome | Promise<Outcome> {
  const spec = Object.hasOwn(methods, command) ? methods[command] : undefined;
  if (!spec) return { ok: false, error: errorFields(new RpcError('unknownCmd')) };
  const admin = isAdmin(caller, params, services.access);
  if (spec.admin && !admin) return { ok: false, error: errorFields(new RpcError('forbidden')) };
  const ctx: MethodContext = {
    services,
    node: services.node,
    params,
    apiVersion,
    admin,
    subscriber,
    prepared,
  };
  try {
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

/** A parsed WebSocket request ready to run, or the reply it already has (malformed requests). */
type ParsedWs =
  { reply: JsonObject } | { request: JsonObject; command: string; apiVersion: ApiVersion; reply?: undefined };

function parseWsMessage(text: string): ParsedWs {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    request = undefined;
  }
  if (!isObject(request)) {
    return { reply: { error: 'jsonInvalid', status: 'error', type: 'response', value: text } };
  }
  return parseWsRequest(request);
}

function parseWsRequest(request: JsonObject): ParsedWs {
  const command = request.command ?? request.method;
  if (command === undefined) {
    return {
      reply: wsEnvelope(request, { error: 'missingCommand', request: redact(request), status: 'error' }),
    };
  }
  const apiVersion = readApiVersion(request.api_version);
  if (apiVersion === 'invalid') {
    return {
      reply: wsEnvelope(request, { error: 'invalid_API_version', request: redact(request), status: 'error' }),
    };
  }
  if (typeof command !== 'string') {
    return {
      reply: wsEnvelope(request, {
        ...errorFields(new RpcError('unknownCmd')),
        request: redact(request),
        status: 'error',
      }),
    };
  }
  return { request, command, apiVersion };
}

function runWs(
  services: ServerServices,
  parsed: ParsedWs,
  caller: Caller,
  subscriber: Subscriber | undefined,
  prepared?: PreparedSubmission,
): JsonObject | Promise<JsonObject> {
  if (parsed.reply) return parsed.reply;
  const { request } = parsed;
  const outcome = runCommand(
    services,
    parsed.command,
    request,
    parsed.apiVersion,
    caller,
    subscriber,
    prepared,
  );
  return outcome instanceof Promise
    ? outcome.then((value) => wsOutcome(request, value))
    : wsOutcome(request, outcome);
}

/**
 * One request from this thread (the embedding process), answered by the same handlers as a
 * WebSocket request and in the same envelope, without the socket and the JSON text both ways. The
 * reply's objects may be shared with the ledger's own memos (simulate's answers): read them, never
 * change them. Not for `subscribe` (there is no connection to stream to).
 */
export function handleLocal(services: ServerServices, request: JsonObject): Promise<JsonObject> {
  const parsed = parseWsRequest(request);
  if (!parsed.reply && (parsed.command === 'subscribe' || parsed.command === 'unsubscribe')) {
    return Promise.resolve(
      wsEnvelope(request, {
        ...errorFields(new RpcError('notSupported')),
        request: redact(request),
        status: 'error',
      }),
    );
  }
  try {
    return Promise.resolve(runWs(services, parsed, LOCAL_CALLER, undefined));
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

/** A request as received: its text, its connection (and who holds it), and where its reply goes. */
export interface WsItem {
  text: string;
  caller: Caller;
  subscriber: Subscriber;
  deliver(reply: JsonObject): void;
}

function reportFailure(err: unknown): void {
  console.error('xrpl-standalone: request failed', err);
}

/**
 * Prepares the requests read in one event-loop turn (a pipelining client sends many per socket
 * read) in two passes: first every submit's decoding and signature check, which depend on the blob
 * alone, then — `run`, handed to `ready` — every command in arrival order, each submit applying its
 * prepared check. A batch with enough signatures has them checked on the signature thread
 * (rippled likewise checks signatures on its job-queue threads ahead of applying) while the event
 * loop applies the batch before; `ready` is called synchronously when every check was made here.
 */
function prepareWsBatch(
  services: ServerServices,
  items: readonly WsItem[],
  ready: (run: () => void) => void,
): void {
  const parsed: ParsedWs[] = [];
  const blobs: string[] = [];
  const blobAt: number[] = [];
  for (const item of items) {
    const p = parseWsMessage(item.text);
    parsed.push(p);
    const blob = p.reply ? undefined : p.request.tx_blob;
    if (!p.reply && p.command === 'submit' && typeof blob === 'string' && blob.length > 0) {
      blobAt[parsed.length - 1] = blobs.length;
      blobs.push(blob);
    }
  }
  const run = (prepared: readonly PreparedSubmission[]) => () => {
    for (let i = 0; i < items.length; i += 1) {
      const item = items[i] as WsItem;
      const at = blobAt[i];
      try {
        const reply = runWs(
          services,
          parsed[i] as ParsedWs,
          item.caller,
          item.subscriber,
          at === undefined ? undefined : prepared[at],
        );
        if (reply instanceof Promise) reply.then(item.deliver, reportFailure);
        else item.deliver(reply);
      } catch (err) {
        reportFailure(err);
      }
    }
  };
  if (blobs.length === 0) ready(run([]));
  else services.node.prepareSubmits(blobs, (prepared) => ready(run(prepared)));
}

/**
 * Gathers the requests of one event-loop turn into a batch and starts preparing it at once
 * (prepareWsBatch); batches then run strictly in arrival order, each once it and every earlier
 * batch are ready, so a pipelined `ledger_accept` still follows its submits while the next
 * batch's signatures are checked during this one's apply.
 */
export class WsBatcher {
  private items: WsItem[] = [];
  private scheduled = false;
  /** Batches not yet run, oldest first; `run` is set once the batch is prepared. */
  private readonly queue: Array<{ run?: () => void }> = [];

  constructor(private readonly services: ServerServices) {}

  push(item: WsItem): void {
    this.items.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    // A microtask runs once the socket read that delivered these frames has been fully parsed.
    queueMicrotask(() => {
      const items = this.items;
      this.items = [];
      this.scheduled = false;
      this.prepare(items);
    });
  }

  private prepare(items: readonly WsItem[]): void {
    const batch: { run?: () => void } = {};
    this.queue.push(batch);
    try {
      prepareWsBatch(this.services, items, (run) => {
        batch.run = run;
        this.drain();
      });
    } catch (err) {
      reportFailure(err);
      batch.run = () => undefined;
      this.drain();
    }
  }

  private drain(): void {
    while (this.queue[0]?.run) {
      const run = (this.queue.shift() as { run: () => void }).run;
      run();
    }
  }
}

/** A JSON-RPC POST body in; HTTP status and body out (rippled answers 400 with text for unparseable input). */
export async function handleJsonRpc(
  services: ServerServices,
  text: string,
  caller: Caller,
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
  // rippled answers an admin method from a caller who is not admin with HTTP 403 before running it.
  if (forbidden(services, method, params, caller)) return { status: 403, body: 'Forbidden', json: false };
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
  const outcome = await runCommand(services, method, params, apiVersion, caller);
  if (!outcome.ok)
    return respond({ ...outcome.error, request: { ...redact(params), command: method }, status: 'error' });
  return respond({ ...outcome.result, status: 'success' });
}
