// A faucet speaking the testnet faucet's protocol (POST /accounts {destination, xrpAmount,
// userAgent}), so xrpl.js `fundWallet({faucetHost, faucetProtocol: 'http'})` works unchanged.
// Funding is a real Payment from the genesis account, signed here and applied through the node.
import { classicAddressToXAddress, isValidClassicAddress } from 'ripple-address-codec';
import { encode, encodeForSigning } from 'ripple-binary-codec';
import { deriveAddress, deriveKeypair, generateSeed, sign } from 'ripple-keypairs';
import type { JsonObject } from '../core/contract';
import type { ServerServices } from './context';
import { accountRootIndex } from './keylets';
import { isObject } from './params';

export const GENESIS_SEED = 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb';
const DEFAULT_XRP = '1000';

/** Whole/decimal XRP text to drops, exactly (no floats); undefined when malformed. */
export function xrpToDrops(text: string): bigint | undefined {
  const match = /^(\d{1,11})(?:\.(\d{1,6}))?$/.exec(text);
  if (!match) return undefined;
  return BigInt(match[1] as string) * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0'));
}

function dropsToXrpText(drops: bigint): string {
  const frac = (drops % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return frac ? `${drops / 1_000_000n}.${frac}` : `${drops / 1_000_000n}`;
}

export interface FaucetReply {
  status: number;
  body: JsonObject;
}

export class Faucet {
  private readonly keypair = deriveKeypair(GENESIS_SEED);
  private readonly genesis = deriveAddress(this.keypair.publicKey);

  constructor(private readonly services: ServerServices) {}

  /** Signs and applies a Payment from genesis; returns the submit result. */
  pay(destination: string, drops: bigint) {
    const { node } = this.services;
    const root = node.current().read(accountRootIndex(this.genesis));
    const tx: JsonObject = {
      TransactionType: 'Payment',
      Account: this.genesis,
      Destination: destination,
      Amount: drops.toString(),
      Fee: node.config.baseFee.toString(),
      Flags: 0,
      Sequence: Number(root?.Sequence ?? 1),
      SigningPubKey: this.keypair.publicKey,
    };
    if (node.config.networkId !== undefined && node.config.networkId > 1024)
      tx.NetworkID = node.config.networkId;
    tx.TxnSignature = sign(encodeForSigning(tx as never), this.keypair.privateKey);
    return node.submit(encode(tx as never));
  }

  handle(body: unknown): FaucetReply {
    const request = isObject(body) ? body : {};
    let destination = request.destination;
    let secret: string | undefined;
    if (
      destination !== undefined &&
      (typeof destination !== 'string' || !isValidClassicAddress(destination))
    ) {
      return { status: 400, body: { error: 'Invalid destination' } };
    }
    if (destination === undefined) {
      secret = generateSeed();
      destination = deriveAddress(deriveKeypair(secret).publicKey);
    }
    const amountText = request.xrpAmount === undefined ? DEFAULT_XRP : String(request.xrpAmount);
    const drops = xrpToDrops(amountText);
    if (drops === undefined || drops === 0n) return { status: 400, body: { error: 'Invalid amount' } };
    const result = this.pay(destination as string, drops);
    if (result.engine_result !== 'tesSUCCESS') {
      return { status: 500, body: { error: `Funding failed: ${result.engine_result}` } };
    }
    // Without a close timer nothing would ever validate the payment the client is polling for.
    if (this.services.closeIntervalMs === 0) this.services.closeLedger();
    const address = destination as string;
    const root = this.services.node.current().read(accountRootIndex(address));
    const balance = root ? BigInt(String(root.Balance)) : drops;
    return {
      status: 200,
      body: {
        account: {
          xAddress: classicAddressToXAddress(address, false, true),
          classicAddress: address,
          address,
          ...(secret ? { secret } : {}),
        },
        amount: Number(dropsToXrpText(drops)),
        balance: Number(dropsToXrpText(balance)),
        transactionHash: result.hash,
      },
    };
  }
}
