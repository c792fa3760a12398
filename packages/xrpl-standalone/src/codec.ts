// The package's transaction decoder on its own, for programs that decode many blobs they signed:
// pure functions, no ledger, no server. It returns exactly what ripple-binary-codec's `decode` returns
// (tested against it in test/core/tx-decoder.test.ts) and hands any shape it does not read itself to
// that codec, so its answer never differs from the codec's, only its cost (~25× less for a signed
// Payment with issued amounts: the codec's base58 account encoding and generic parser dominate).
export { decodeTransaction } from './core/tx-decoder';
