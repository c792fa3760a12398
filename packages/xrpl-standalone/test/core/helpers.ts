// Test helpers: drive a LedgerNode directly with blobs signed by xrpl.js wallets.
import { BatchFlags, GlobalFlags, Wallet, type SubmittableTransaction } from 'xrpl';
import { encode, encodeForSigning } from 'ripple-binary-codec';
import { sign } from 'ripple-keypairs';
import { LedgerNode, GENESIS_SEED } from '../../src/core/ledger-node';
import type { CoreConfig, SubmitResult } from '../../src/core/contract';
import { accountRootKey } from '../../src/core/keylets';
import { engineHooks } from '../../src/core/engine';

export const genesis = Wallet.fromSeed(GENESIS_SEED);

/** Internal engine errors (which rippled would report as tefEXCEPTION) fail the test that caused them. */
const engineErrors: unknown[] = [];
engineHooks.onException = (error) => engineErrors.push(error);

function assertNoEngineError(): void {
  const e = engineErrors.shift();
  if (e !== undefined) throw e;
}

export class Harness {
  readonly node: LedgerNode;
  private seqs = new Map<string, number>();

  constructor(config: Partial<CoreConfig> = {}) {
    let t = 800_000_000;
    this.node = new LedgerNode(config, { now: () => (t += 10) });
  }

  account(address: string): Record<string, unknown> | undefined {
    return this.node.current().read(accountRootKey(address));
  }

  balance(address: string): bigint {
    const a = this.account(address);
    return a ? BigInt(a.Balance as string) : 0n;
  }

  nextSeq(address: string): number {
    const a = this.account(address);
    return a ? Number(a.Sequence) : 0;
  }

  sign(wallet: Wallet, tx: Record<string, unknown>, opts: { seq?: number; fee?: string } = {}): string {
    const account = (tx.Account as string | undefined) ?? wallet.classicAddress;
    const prepared = {
      Fee: opts.fee ?? this.node.config.baseFee.toString(),
      Sequence: opts.seq ?? this.nextSeq(account),
      ...tx,
      Account: account,
    } as unknown as SubmittableTransaction;
    return wallet.sign(prepared).tx_blob;
  }

  /** Sign without xrpl.js validation (to build transactions rippled itself must reject). */
  signRaw(wallet: Wallet, tx: Record<string, unknown>, opts: { seq?: number; fee?: string } = {}): string {
    const account = (tx.Account as string | undefined) ?? wallet.classicAddress;
    const prepared: Record<string, unknown> = {
      Fee: opts.fee ?? this.node.config.baseFee.toString(),
      Sequence: opts.seq ?? this.nextSeq(account),
      SigningPubKey: wallet.publicKey,
      ...tx,
      Account: account,
    };
    prepared.TxnSignature = sign(encodeForSigning(prepared), wallet.privateKey);
    return encode(prepared);
  }

  submit(
    wallet: Wallet,
    tx: Record<string, unknown>,
    opts: { seq?: number; fee?: string } = {},
  ): SubmitResult {
    const r = this.node.submit(this.sign(wallet, tx, opts));
    assertNoEngineError();
    return r;
  }

  /** Submit and insist on a specific engine result. */
  expect(
    wallet: Wallet,
    tx: Record<string, unknown>,
    result: string,
    opts: { seq?: number; fee?: string } = {},
  ): SubmitResult {
    const r = this.submit(wallet, tx, opts);
    if (r.engine_result !== result) {
      throw new Error(
        `expected ${result}, got ${r.engine_result || JSON.stringify(r.rpcError)} for ${JSON.stringify(tx)}`,
      );
    }
    return r;
  }

  fund(address: string, drops: bigint = 1_000_000_000n): void {
    this.expect(
      genesis,
      { TransactionType: 'Payment', Destination: address, Amount: drops.toString() },
      'tesSUCCESS',
    );
  }

  wallet(drops: bigint = 1_000_000_000n): Wallet {
    const w = Wallet.generate();
    this.fund(w.classicAddress, drops);
    return w;
  }

  close(): void {
    this.node.closeLedger();
    assertNoEngineError();
  }
}

/**
 * An all-or-nothing Batch of `outer`, unsigned, as JSON: one inner payment per entry (its payer,
 * Sequence and Amount; `extra` fields in each), for the tests that compare the package's byte
 * handling of Batches with the codec's.
 */
export function paymentBatchJson(
  outer: Wallet,
  inners: Array<{ from: Wallet; sequence: number; amount: unknown }>,
  extra: Record<string, unknown> = {},
) {
  return {
    TransactionType: 'Batch',
    Account: outer.classicAddress,
    Flags: BatchFlags.tfAllOrNothing,
    Fee: '40',
    Sequence: 5,
    SigningPubKey: outer.publicKey,
    RawTransactions: inners.map(({ from, sequence, amount }) => ({
      RawTransaction: {
        TransactionType: 'Payment',
        Flags: GlobalFlags.tfInnerBatchTxn,
        Account: from.classicAddress,
        Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
        Amount: amount,
        Sequence: sequence,
        Fee: '0',
        SigningPubKey: '',
        ...extra,
      } as Record<string, unknown>,
    })),
  };
}
