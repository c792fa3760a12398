// path_find (rippled PathRequest / PathRequests): a WebSocket client keeps one path request open
// and gets its alternatives again after every ledger close, as a `path_find` message. `create`
// answers at once (full_reply false: rippled's first, "fast" pass), `status` repeats the last
// answer, `close` ends the request. Alternatives are computed like ripple_path_find's, against the
// latest closed ledger. Not implemented: send_max / convert-all (destination_amount "-1") and
// permissioned domains.
import { isValidClassicAddress } from 'ripple-address-codec';
import type { Issue } from '../../amm/amount';
import { isXrp, type Amt } from '../../amm/amount';
import { accountReserve } from '../../core/account';
import type { ClosedLedgerRecord, JsonObject, LedgerNodeApi } from '../../core/contract';
import { readAccount } from '../../core/book/read';
import type { MethodContext, MethodSpec } from '../context';
import { RpcError } from '../errors';
import type { SubscriptionHub, Subscriber } from '../subscriptions';
import { findAlternatives, readDestinationAmount, sourceIssues } from './ripple-path-find';

interface PathRequest {
  src: string;
  dst: string;
  /** destination_amount as the client sent it (echoed back unchanged). */
  amountJson: unknown;
  deliver: Amt;
  /** source_currencies when given; otherwise the source's currencies at each update. */
  params: JsonObject;
  id: unknown;
  /** The last answer (rippled's jvStatus). */
  status: JsonObject;
}

const EXTENSION = 'path_find';
const hubsWithPublisher = new WeakSet<SubscriptionHub>();

function parseRequest(params: JsonObject): Omit<PathRequest, 'status'> {
  if (params.source_account === undefined) throw new RpcError('srcActMissing');
  if (params.destination_account === undefined) throw new RpcError('dstActMissing');
  if (params.destination_amount === undefined) throw new RpcError('dstAmtMissing');
  const src = params.source_account;
  if (typeof src !== 'string' || !isValidClassicAddress(src)) throw new RpcError('srcActMalformed');
  const dst = params.destination_account;
  if (typeof dst !== 'string' || !isValidClassicAddress(dst)) throw new RpcError('dstActMalformed');
  const deliver = readDestinationAmount(params.destination_amount);
  if (deliver.value.signum() <= 0) throw new RpcError('dstAmtMalformed');
  return { src, dst, amountJson: params.destination_amount, deliver, params, id: params.id };
}

/**
 * rippled PathRequest::doUpdate: check the request against the latest closed ledger (isValid)
 * and find its alternatives. `full` is false for the first answer to `create`.
 */
function update(node: LedgerNodeApi, req: Omit<PathRequest, 'status'>, full: boolean): JsonObject {
  const view = node.validated();
  if (!readAccount(view, req.src)) throw new RpcError('srcActNotFound');
  if (!readAccount(view, req.dst)) {
    // Only XRP, and at least the reserve, can be sent to an account that does not exist.
    if (!isXrp(req.deliver.issue)) throw new RpcError('actNotFound');
    if (req.deliver.value.toBigInt() < accountReserve(node.config, 0)) throw new RpcError('dstAmtMalformed');
  }
  const sources: Issue[] = sourceIssues(view, req.src, req.params);
  const status: JsonObject = {
    source_account: req.src,
    destination_account: req.dst,
    destination_amount: req.amountJson,
    full_reply: full,
  };
  if (req.id !== undefined) status.id = req.id;
  status.alternatives = findAlternatives(view, node.config, req.src, req.dst, req.deliver, sources);
  return status;
}

function errorStatus(e: unknown): JsonObject {
  if (!(e instanceof RpcError)) throw e;
  return { error: e.error, error_code: e.errorCode, error_message: e.message, ...e.extra };
}

/** After each close: every open request is computed again and sent (PathRequests::updateAll). */
function publish(_record: ClosedLedgerRecord, hub: SubscriptionHub, node: LedgerNodeApi): void {
  for (const sub of hub.subscribers) {
    const req = sub.extensions.get(EXTENSION) as PathRequest | undefined;
    if (!req) continue;
    let status: JsonObject;
    try {
      status = update(node, req, true);
    } catch (e) {
      status = errorStatus(e);
      if (req.id !== undefined) status.id = req.id;
    }
    req.status = status;
    sub.send({ ...status, type: 'path_find' });
  }
}

function requestOf(subscriber: Subscriber): PathRequest {
  const req = subscriber.extensions.get(EXTENSION) as PathRequest | undefined;
  if (!req) throw new RpcError('noPathRequest');
  return req;
}

function create(ctx: MethodContext, subscriber: Subscriber): JsonObject {
  subscriber.extensions.delete(EXTENSION);
  const parsed = parseRequest(ctx.params);
  const status = update(ctx.node, parsed, false);
  subscriber.extensions.set(EXTENSION, { ...parsed, status });
  const hub = ctx.services.subscriptions;
  if (!hubsWithPublisher.has(hub)) {
    const node = ctx.node;
    hub.closePublishers.push((record, h) => publish(record, h, node));
    hubsWithPublisher.add(hub);
  }
  return status;
}

export const pathFindMethod: MethodSpec = {
  handler: (ctx) => {
    const subscriber = ctx.subscriber;
    // Over JSON-RPC there is no connection to send updates to.
    if (!subscriber) throw new RpcError('noEvents');
    const sub = ctx.params.subcommand;
    if (typeof sub !== 'string') throw new RpcError('invalidParams');
    switch (sub) {
      case 'create':
        return create(ctx, subscriber);
      case 'close': {
        const req = requestOf(subscriber);
        subscriber.extensions.delete(EXTENSION);
        return { ...req.status, closed: true, status: 'success' };
      }
      case 'status':
        return { ...requestOf(subscriber).status, status: 'success' };
      default:
        throw new RpcError('invalidParams');
    }
  },
};
