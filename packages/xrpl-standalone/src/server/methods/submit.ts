// submit: a signed tx_blob applied tentatively to the open ledger (rippled's doSubmit).
import type { JsonObject } from '../../core/contract';
import type { MethodSpec } from '../context';
import { RpcError, invalidField, missingField } from '../errors';
import { accountRootIndex } from '../keylets';

function rpcErrorFrom(error: { error: string; error_exception?: string; error_message?: string }): RpcError {
  const extra: Record<string, unknown> = {};
  if (error.error_exception !== undefined) extra.error_exception = error.error_exception;
  if (error.error === 'invalidParams') return new RpcError('invalidParams', error.error_message, extra);
  return new RpcError('invalidTransaction', error.error_message, extra);
}

const HEX_RE = /^(?:[0-9A-Fa-f]{2})+$/;

export const submitMethod: MethodSpec = {
  handler: ({ node, params, services }) => {
    const blob = params.tx_blob;
    if (blob === undefined) {
      // Sign-and-submit (tx_json + secret) is a trusted-signing mode this server doesn't offer.
      if (params.tx_json !== undefined) throw new RpcError('notSupported', 'Signing is not supported: submit a signed tx_blob.');
      throw missingField('tx_blob');
    }
    if (typeof blob !== 'string' || !HEX_RE.test(blob)) throw invalidField('tx_blob');
    if (params.fail_hard !== undefined && typeof params.fail_hard !== 'boolean') throw invalidField('fail_hard', 'a boolean');
    const result = node.submit(blob.toUpperCase());
    // rippled answers undecodable blobs and failed local checks (signature, memos) with an RPC
    // error instead of an engine result.
    if (result.rpcError) throw rpcErrorFrom(result.rpcError);
    if (!result.tx) throw new RpcError('invalidTransaction', undefined, { error_exception: result.engine_result_message });
    services.subscriptions.publishProposed(result);
    const account = typeof result.tx.Account === 'string' ? result.tx.Account : undefined;
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
      queued: result.queued,
      tx_blob: blob.toUpperCase(),
      tx_json: { ...result.tx, hash: result.hash },
      validated_ledger_index: result.validated_ledger_index ?? node.validated().header.ledger_index,
    };
    return out;
  },
};
