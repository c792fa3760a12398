import { walletKindLabel, type WalletApp, type WalletKind } from '@ledgerpad/shared';

const TITLES: Record<WalletKind, string> = {
  custodial: 'Custodial: its key is stored encrypted on this server, which signs for it.',
  browser: 'Browser key: its key is encrypted in this browser only; the server cannot sign for it.',
  external: 'Wallet app: its key stays in the app; the server cannot sign for it.',
};

/** Who signs for a wallet, wherever a wallet appears: 'Custodial', 'Browser key', 'GemWallet', … */
export function WalletKindBadge({ kind = 'custodial', app }: { kind?: WalletKind; app?: WalletApp | null }) {
  return (
    <span className={`kind-badge kind-${kind}`} title={TITLES[kind]} data-testid="wallet-kind">
      {walletKindLabel(kind, app)}
    </span>
  );
}
