// rippled's trusted signing (`sign`, and `submit` with tx_json + secret): the server fills Fee,
// Sequence and SigningPubKey, signs with the given seed and returns the blob. Offered on the local
// admin port only, as rippled does; the secret is never stored or echoed.
import { encode, encodeForSigning } from 'ripple-binary-codec';
import { deriveAddress, deriveKeypair, sign } from 'ripple-keypairs';
import type { JsonObject, LedgerNodeApi } from '../core/contract';
import { RpcError, missingField } from './errors';
import { checkJsonAmounts } from './json-amounts';
import { accountRootIndex } from './keylets';
import { isObject } from './params';

export interface SignedTx {
  blob: string;
  tx: JsonObject;
}

function readSeed(params: JsonObject): string {
  const fields = ['secret', 'seed', 'seed_hex', 'passphrase'].filter((f) => params[f] !== undefined);
  if (fields.length === 0) throw missingField('secret');
  if (fields.length > 1)
    throw new RpcError(
      'invalidParams',
      'Exactly one of the following must be specified: passphrase, secret, seed or seed_hex',
    );
  const field = fields[0] as string;
  const value = params[field];
  if (typeof value !== 'string' || field === 'seed_hex' || field === 'passphrase') {
    // Hex seeds and passphrases need rippled's own derivations; family seeds cover every wallet.
    throw new RpcError('badSeed', 'Only family seeds (secret / seed) are supported.');
  }
  return value;
}

export function signTransaction(node: LedgerNodeApi, params: JsonObject, admin: boolean): SignedTx {
  if (!admin) throw new RpcError('noPermission');
  const txJson = params.tx_json;
  if (txJson === undefined) throw missingField('tx_json');
  if (!isObject(txJson)) throw new RpcError('invalidParams', "Invalid field 'tx_json', not object.");
  const seed = readSeed(params);
  let keypair: { publicKey: string; privateKey: string };
  try {
    keypair = deriveKeypair(seed);
  } catch {
    throw new RpcError('badSeed');
  }
  const tx: JsonObject = { ...txJson };
  if (typeof tx.TransactionType !== 'string') throw missingField('tx_json.TransactionType');
  checkJsonAmounts(tx);
  if (typeof tx.Account !== 'string') throw missingField('tx_json.Account');
  const root = node.current().read(accountRootIndex(tx.Account));
  if (!root) throw new RpcError('srcActNotFound');
  tx.SigningPubKey ??= keypair.publicKey;
  if (tx.SigningPubKey !== keypair.publicKey)
    throw new RpcError('badSecret', 'Secret does not match the signing public key.');
  const signer = deriveAddress(keypair.publicKey);
  if (signer !== tx.Account && root.RegularKey !== signer)
    throw new RpcError('badSecret', 'Secret does not match account.');
  // rippled's sign fills the transaction's own minimum fee (calculateBaseFee): a Batch's, an
  // AccountDelete's owner reserve.
  tx.Fee ??= node.requiredFee(tx).toString();
  if (tx.Sequence === undefined && tx.TicketSequence === undefined) tx.Sequence = Number(root.Sequence);
  let blob: string;
  try {
    tx.TxnSignature = sign(encodeForSigning(tx as never), keypair.privateKey);
    blob = encode(tx as never);
  } catch (err) {
    throw new RpcError('invalidTransaction', undefined, {
      error_exception: err instanceof Error ? err.message : String(err),
    });
  }
  return { blob, tx };
}
