// simulate (rippled 2.4): what a transaction would do if submitted now — its engine result and
// metadata against the open ledger — without signing, submitting or keeping anything. Unsigned
// by design: a signed transaction is refused (transactionSigned). Fee, Sequence, SigningPubKey
// and NetworkID are filled as rippled's simulate fills them. With `binary: true` the transaction
// and its metadata come back serialized (tx_blob, meta_blob) instead of as JSON.
import { decode, encode } from 'ripple-binary-codec';
import type { JsonObject } from '../../core/contract';
import { terCode, terMessage, type Ter } from '../../core/results';
import type { MethodSpec } from '../context';
import { serializeHex } from '../../core/serializer';
import { encodeTransactionFast } from '../../core/tx-encoder';
import { RpcError, invalidField, missingField } from '../errors';
import { checkJsonAmounts } from '../json-amounts';
import { accountRootIndex } from '../keylets';
import { isObject } from '../params';
import { txJsonForApi } from '../tx-format';

const SIMULATED_SUCCESS = 'The simulated transaction would have been applied.';

function isSigned(tx: JsonObject): boolean {
  if (typeof tx.TxnSignature === 'string' && tx.TxnSignature !== '') return true;
  return (
    Array.isArray(tx.Signers) &&
    tx.Signers.some((s) => {
      const signer = (s as { Signer?: { TxnSignature?: string } }).Signer;
      return typeof signer?.TxnSignature === 'string' && signer.TxnSignature !== '';
    })
  );
}

/**
 * The binary form of each recently simulated tx_json. A quote screen sends the same question again
 * and again, and encoding it costs more than the memoized simulation it keys (LedgerNode.simulate):
 * the blob is a pure function of the autofilled JSON, so the text of that JSON keys it. Bounded;
 * emptied when full.
 */
const encoded = new Map<string, string>();
const ENCODED_ENTRIES = 1_000;

/** The JSON text of `tx` when it names the transaction exactly (no value JSON drops or changes). */
function jsonKey(tx: JsonObject): string | undefined {
  let exact = true;
  const text = JSON.stringify(tx, (_key, v: unknown) => {
    const t = typeof v;
    if (
      v === undefined ||
      t === 'bigint' ||
      t === 'function' ||
      t === 'symbol' ||
      (t === 'number' && !Number.isFinite(v))
    ) {
      exact = false;
      return null;
    }
    return v;
  });
  return exact ? text : undefined;
}

/**
 * The codec's encoding of `tx`, from the package's own serializer when that is provably the same
 * (core/tx-encoder.ts). A hot launch simulates a new account's trade per buy, which no memo holds,
 * and the codec's encode (base58 checks of every address, an object per field) cost more than the
 * simulation's own bookkeeping (issue 40).
 */
function encodeTx(tx: JsonObject): string {
  return encodeTransactionFast(tx) ?? encode(tx as never);
}

function encodeKept(tx: JsonObject): string {
  const key = jsonKey(tx);
  const kept = key === undefined ? undefined : encoded.get(key);
  if (kept !== undefined) return kept;
  const blob = encodeTx(tx);
  if (key !== undefined) {
    if (encoded.size >= ENCODED_ENTRIES) encoded.clear();
    encoded.set(key, blob);
  }
  return blob;
}

export const simulateMethod: MethodSpec = {
  handler: ({ node, params, apiVersion }) => {
    if (params.tx_json !== undefined && params.tx_blob !== undefined) {
      throw new RpcError('invalidParams', 'Cannot include both tx_json and tx_blob.');
    }
    if (params.binary !== undefined && typeof params.binary !== 'boolean') throw invalidField('binary');
    const binary = params.binary === true;
    let blob: string;
    if (params.tx_blob !== undefined) {
      if (typeof params.tx_blob !== 'string') throw new RpcError('invalidParams', "Invalid field 'tx_blob'.");
      blob = params.tx_blob.toUpperCase();
    } else {
      if (params.tx_json === undefined) throw missingField('tx_json');
      if (!isObject(params.tx_json))
        throw new RpcError('invalidParams', "Invalid field 'tx_json', not object.");
      const tx: JsonObject = { ...params.tx_json };
      if (typeof tx.TransactionType !== 'string') throw missingField('tx_json.TransactionType');
      if (typeof tx.Account !== 'string') throw missingField('tx_json.Account');
      if (isSigned(tx)) throw new RpcError('transactionSigned');
      checkJsonAmounts(tx);
      // Autofill, as rippled's simulate does.
      tx.SigningPubKey ??= '';
      tx.Fee ??= node.config.baseFee.toString();
      const networkId = node.config.networkId ?? 0;
      if (tx.NetworkID === undefined && networkId > 1024) tx.NetworkID = networkId;
      if (tx.Sequence === undefined && tx.TicketSequence === undefined) {
        const root = node.current().read(accountRootIndex(tx.Account));
        if (!root) throw new RpcError('srcActNotFound');
        tx.Sequence = Number(root.Sequence);
      }
      try {
        blob = encodeKept(tx);
      } catch (err) {
        throw new RpcError('invalidTransaction', undefined, {
          error_exception: err instanceof Error ? err.message : String(err),
        });
      }
    }
    const out = node.simulate(blob);
    if (out.rpcError === undefined && isSigned(out.tx)) throw new RpcError('transactionSigned');
    if (out.rpcError?.error === 'notImpl') {
      // rippled refuses a Batch (notImpl) after its signed-transaction check.
      if (params.tx_blob !== undefined && isSigned(decode(blob) as JsonObject)) {
        throw new RpcError('transactionSigned');
      }
      throw new RpcError('notImpl');
    }
    if (out.rpcError) {
      const extra = out.rpcError.error_exception ? { error_exception: out.rpcError.error_exception } : {};
      if (out.rpcError.error === 'invalidParams')
        throw new RpcError('invalidParams', out.rpcError.error_message);
      throw new RpcError('invalidTransaction', out.rpcError.error_message, extra);
    }
    const ter = out.ter as Ter;
    const result: JsonObject = {
      applied: false,
      engine_result: ter,
      engine_result_code: terCode(ter),
      // rippled's simulate words success its own way.
      engine_result_message: ter === 'tesSUCCESS' ? SIMULATED_SUCCESS : terMessage(ter),
      ledger_index: out.ledgerIndex,
    };
    if (binary) {
      // The metadata as the ledger would store it (delivered_amount is an API-only addition),
      // and the transaction as it was simulated (autofilled, unsigned).
      if (out.meta) {
        const { delivered_amount: _delivered, ...stored } = out.meta;
        result.meta_blob = serializeHex(stored);
      }
      result.tx_blob = blob;
      return result;
    }
    result.tx_json = { ...txJsonForApi(out.tx, apiVersion), hash: out.hash };
    if (out.meta) result.meta = out.meta;
    return result;
  },
};
