import type { Ref, SelectHTMLAttributes } from 'react';
import { useMyWallets } from '../lib/my-wallets';
import { walletLabel } from '../lib/wallet-balances';
import { SelectField } from './form-field';

type Props = SelectHTMLAttributes<HTMLSelectElement> & {
  invalid?: boolean;
  errorId?: string;
  ref?: Ref<HTMLSelectElement>;
};

/** 'Wallet': one of the signed-in user's wallets, where a claim is paid (rewards, referrals). */
export function WalletSelectField({ invalid, errorId, ref, ...select }: Props) {
  const wallets = useMyWallets();
  return (
    <SelectField label="Wallet" invalid={invalid} errorId={errorId} ref={ref} {...select}>
      <option value="">{wallets.isPending ? 'Loading wallets…' : 'Select a wallet'}</option>
      {wallets.data?.map((w) => (
        <option key={w.id} value={w.wallet_address}>
          {walletLabel(w)}
        </option>
      ))}
    </SelectField>
  );
}
