// xrpl-connect 0.8 ships no type declarations: the part of its API this app uses (read from its
// bundle, node_modules/xrpl-connect/index-*.mjs: WalletManager and the adapters' constructors).
declare module 'xrpl-connect' {
  export interface XrplConnectAccount {
    address: string;
    publicKey?: string;
    network: { id: string; name: string; wss: string };
  }
  export interface XrplConnectAdapter {
    readonly id: string;
    readonly name: string;
    isAvailable(): Promise<boolean>;
  }
  export interface XrplConnectNetwork {
    id: string;
    name: string;
    wss: string;
    walletConnectId?: string;
  }
  export class WalletManager {
    constructor(options: {
      adapters: XrplConnectAdapter[];
      network: string | XrplConnectNetwork;
      autoConnect?: boolean;
      logger?: { level?: string } | false;
    });
    connect(walletId: string, options?: Record<string, unknown>): Promise<XrplConnectAccount>;
    disconnect(): Promise<void>;
    sign(tx: Record<string, unknown>): Promise<{ hash: string; tx_blob: string; signature?: string }>;
    readonly connected: boolean;
    readonly account: XrplConnectAccount | null;
  }
  export class GemWalletAdapter implements XrplConnectAdapter {
    constructor(options?: Record<string, unknown>);
    readonly id: string;
    readonly name: string;
    isAvailable(): Promise<boolean>;
  }
  export class CrossmarkAdapter implements XrplConnectAdapter {
    constructor(options?: Record<string, unknown>);
    readonly id: string;
    readonly name: string;
    isAvailable(): Promise<boolean>;
  }
  export class LedgerAdapter implements XrplConnectAdapter {
    constructor(options?: Record<string, unknown>);
    readonly id: string;
    readonly name: string;
    isAvailable(): Promise<boolean>;
  }
  export class XamanAdapter implements XrplConnectAdapter {
    constructor(options?: { apiKey?: string });
    readonly id: string;
    readonly name: string;
    isAvailable(): Promise<boolean>;
  }
  export class WalletConnectAdapter implements XrplConnectAdapter {
    constructor(options?: { projectId?: string });
    readonly id: string;
    readonly name: string;
    isAvailable(): Promise<boolean>;
  }
}
