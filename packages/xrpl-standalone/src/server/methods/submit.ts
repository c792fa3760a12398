// submit: a signed tx_blob applied tentatively to the open ledger (rippled's doSubmit).
import { createHash } from 'node:crypto';
import { encode } from 'ripple-binary-codec';
import type { JsonObject, SubmitResult } from '../../core/contract';
import type { MethodContext, MethodSpec } from '../context';
import { RpcError, invalidField, missingField } from '../errors';
import { checkJsonAmounts } from '../json-amounts';
import { accountRootIndex } from '../keylets';
import { signTransaction } from '../signing';
import { txJsonForApi } from '../tx-format';

function rpcErrorFrom(error: { error: string; error_exception?: string; error_message?: string }): RpcError {
  const extra: Record<string, unknown> = {};
  if (error.error_exception !== undefined) extra.error_exception = error.error_exception;
  if (error.error === 'invalidParams') return new RpcError('invalidParams', error.error_message, extra);
  return new RpcError('invalidTransaction', error.error_message, extra);
}

/** SHA-512Half of 'TXN\0' + blob: the transaction ID. */
function transactionHash(blob: string): string {
  return createHash('sha512')
    .update(Buffer.from('54584E00' + blob, 'hex'))
    .digest('hex')
    .slice(0, 64)
    .toUpperCase();
}

const HEX_RE = /^(?:[0-9A-Fa-f]{2})+$/;

export const signMethod: MethodSpec = {
  admin: true,
  handler: ({ node, params, admin }) => {
    const { blob, tx } = signTransaction(node, params, admin);
    return { tx_blob: blob, tx_json: { ...tx, hash: transactionHash(blob) } };
  },
};

/**
 * Apply a signed blob to the open ledger (and announce it to proposed-transaction subscribers):
 * the part `submit` and `submit_multisigned` share. Local-check failures become RPC errors.
 */
function submitBlob(
  ctx: MethodContext,
  txBlob: string,
): { result: SubmitResult; tx: JsonObject; blob: string } {
  const { node, services } = ctx;
  // The batch prepared this very string (the request's tx_blob): its decoding carries the upper-case
  // blob, so the 300-odd characters are neither copied nor compared again.
  const prepared = ctx.prepared?.blob === txBlob ? ctx.prepared : undefined;
  const upper = prepared?.upperBlob ?? txBlob.toUpperCase();
  const result = node.submit(prepared ?? upper);
  // rippled answers undecodable blobs and failed local checks (signature, memos) with an RPC
  // error instead of an engine result.
  if (result.rpcError) throw rpcErrorFrom(result.rpcError);
  if (!result.tx)
    throw new RpcError('invalidTransaction', undefined, { error_exception: result.engine_result_message });
  services.subscriptions.publishProposed(result);
  return { result, tx: result.tx, blob: upper };
}

export const submitMethod: MethodSpec = {
  handler: (ctx) => {
    const { node, params, admin } = ctx;
    let blob = params.tx_blob;
    if (blob === undefined) {
      if (params.tx_json === undefined) throw missingField('tx_blob');
      // Sign-and-submit: rippled's trusted signing mode for admin clients.
      blob = signTransaction(node, params, admin).blob;
    }
    // A blob the batch already decoded (prepareSubmit, same text) is known to be hex.
    const decoded = ctx.prepared?.decodes === true && ctx.prepared.blob === blob;
    if (typeof blob !== 'string' || (!decoded && !HEX_RE.test(blob))) throw invalidField('tx_blob');
    if (params.fail_hard !== undefined && typeof params.fail_hard !== 'boolean')
      throw invalidField('fail_hard', 'a boolean');
    const { result, tx, blob: upper } = submitBlob(ctx, blob);
    const account = typeof tx.Account === 'string' ? tx.Account : undefined;
    let sequenceNext = result.account_sequence_next;
    let sequenceAvailable = result.account_sequence_available;
    if (account && (sequenceNext === undefined || sequenceAvailable === undefined)) {
      const root = node.current().read(accountRootIndex(account));
      const seq = root ? Number(root.Sequence) : 0;
      sequenceNext ??= seq;
      sequenceAvailable ??= seq;
    }
    const out: JsonObject = {
      accepted: result.applied || result.kept || result.queued,
      account_sequence_available: sequenceAvailable,
      account_sequence_next: sequenceNext,
      applied: result.applied,
      broadcast: result.applied,
      engine_result: result.engine_result,
      engine_result_code: result.engine_result_code,
      engine_result_message: result.engine_result_message,
      kept: result.kept,
      open_ledger_cost: result.open_ledger_cost ?? node.config.baseFee.toString(),
      // rippled's `queued` means "in the transaction queue" (terQUEUED); a ter held for retry at the
      // next close (terPRE_SEQ...) is `kept`, not queued.
      queued: result.engine_result === 'terQUEUED',
      tx_blob: upper,
      tx_json: { ...tx, hash: result.hash },
      validated_ledger_index: result.validated_ledger_index ?? node.validated().header.ledger_index,
    };
    return out;
  },
};

/**
 * submit_multisigned: a multi-signed transaction as JSON (Signers present, empty SigningPubKey).
 * rippled answers it through transactionFormatResultImpl (rpc/detail/TransactionSign.cpp), not
 * like submit: only tx_json, tx_blob and the engine result. Under API v2 the hash sits beside
 * tx_json instead of inside it; a Payment's Amount is shown as DeliverMax (RPC::insertDeliverMax).
 */
export const submitMultisignedMethod: MethodSpec = {
  handler: (ctx) => {
    const txJson = ctx.params.tx_json;
    if (txJson === undefined) throw missingField('tx_json');
    if (typeof txJson !== 'object' || txJson === null || Array.isArray(txJson)) {
      throw new RpcError('invalidParams', "Invalid field 'tx_json', not object.");
    }
    const input = txJson as JsonObject;
    if (!Array.isArray(input.Signers) || input.Signers.length === 0) throw missingField('tx_json.Signers');
    checkJsonAmounts(input);
    let blob: string;
    try {
      blob = encode(input as never);
    } catch (err) {
      throw new RpcError('invalidTransaction', undefined, {
        error_exception: err instanceof Error ? err.message : String(err),
      });
    }
    const { result, tx, blob: upper } = submitBlob(ctx, blob);
    const shown = txJsonForApi(tx, ctx.apiVersion);
    const v2 = ctx.apiVersion > 1;
    // (rippled's JSON objects list their keys in order)
    const out: JsonObject = {
      engine_result: result.engine_result,
      engine_result_code: result.engine_result_code,
      engine_result_message: result.engine_result_message,
      ...(v2 ? { hash: result.hash } : {}),
      tx_blob: upper,
      tx_json: v2 ? shown : { ...shown, hash: result.hash },
    };
    return out;
  },
};
