// The package's transaction codec on its own, for programs that decode and encode many
// transactions they sign: pure functions, no ledger, no server. Each answers exactly what
// ripple-binary-codec answers (tested against it in test/core/tx-decoder.test.ts and
// test/core/tx-encoder.test.ts) or leaves the transaction to that codec: never a different answer,
// only a cheaper one (~25× for a signed Payment with issued amounts, where the codec's base58
// account handling and generic parser dominate).
export { decodeTransaction } from './core/tx-decoder';
export { encodeTransactionFast } from './core/tx-encoder';
