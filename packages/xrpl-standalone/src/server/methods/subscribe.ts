// subscribe / unsubscribe over WebSocket: streams and accounts (books are added by the DEX code
// through `subscribeExtensions`).
import { isValidClassicAddress } from 'ripple-address-codec';
import type { JsonObject } from '../../core/contract';
import type { MethodContext, MethodSpec } from '../context';
import { RpcError } from '../errors';
import { ledgerStreamFields } from '../ledger-info';
import { KNOWN_STREAMS, type Subscriber } from '../subscriptions';

/** A subscription kind keyed by its request field (e.g. `books`); returns fields to merge into the reply. */
export interface SubscribeExtension {
  subscribe(ctx: MethodContext, subscriber: Subscriber, value: unknown): JsonObject | void;
  unsubscribe(ctx: MethodContext, subscriber: Subscriber, value: unknown): void;
}

export const subscribeExtensions = new Map<string, SubscribeExtension>();

function readStreams(params: JsonObject): string[] {
  const streams = params.streams;
  if (streams === undefined) return [];
  if (!Array.isArray(streams)) throw new RpcError('invalidParams', "Invalid field 'streams'.");
  for (const s of streams) {
    if (typeof s !== 'string' || !KNOWN_STREAMS.has(s)) throw new RpcError('malformedStream');
  }
  return streams as string[];
}

function readAccounts(params: JsonObject, field: string): string[] {
  const accounts = params[field];
  if (accounts === undefined) return [];
  if (!Array.isArray(accounts) || accounts.length === 0) throw new RpcError('actMalformed');
  for (const a of accounts) {
    if (typeof a !== 'string' || !isValidClassicAddress(a)) throw new RpcError('actMalformed');
  }
  return accounts as string[];
}

function requireSubscriber(ctx: MethodContext): Subscriber {
  if (!ctx.subscriber) throw new RpcError('noEvents');
  if (ctx.params.url !== undefined)
    throw new RpcError('notSupported', 'URL subscriptions are not supported.');
  return ctx.subscriber;
}

export const subscribeMethod: MethodSpec = {
  handler: (ctx) => {
    const subscriber = requireSubscriber(ctx);
    const streams = readStreams(ctx.params);
    const accounts = readAccounts(ctx.params, 'accounts');
    const accountsProposed = readAccounts(ctx.params, 'accounts_proposed');
    if (ctx.params.books !== undefined && !subscribeExtensions.has('books')) {
      throw new RpcError('notImpl', 'Order book subscriptions are not available.');
    }
    subscriber.apiVersion = ctx.apiVersion;
    const result: JsonObject = {};
    for (const stream of streams) subscriber.streams.add(stream);
    if (streams.includes('ledger')) {
      const header = ctx.node.validated().header;
      Object.assign(result, ledgerStreamFields(ctx.node, header));
    }
    for (const a of accounts) subscriber.accounts.add(a);
    for (const a of accountsProposed) subscriber.accountsProposed.add(a);
    for (const [field, extension] of subscribeExtensions) {
      if (ctx.params[field] !== undefined)
        Object.assign(result, extension.subscribe(ctx, subscriber, ctx.params[field]) ?? {});
    }
    return result;
  },
};

export const unsubscribeMethod: MethodSpec = {
  handler: (ctx) => {
    const subscriber = requireSubscriber(ctx);
    const streams = readStreams(ctx.params);
    const accounts = readAccounts(ctx.params, 'accounts');
    const accountsProposed = readAccounts(ctx.params, 'accounts_proposed');
    for (const s of streams) subscriber.streams.delete(s);
    for (const a of accounts) subscriber.accounts.delete(a);
    for (const a of accountsProposed) subscriber.accountsProposed.delete(a);
    for (const [field, extension] of subscribeExtensions) {
      if (ctx.params[field] !== undefined) extension.unsubscribe(ctx, subscriber, ctx.params[field]);
    }
    return {};
  },
};
