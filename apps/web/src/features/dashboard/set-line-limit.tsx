import {
  currencyToTicker,
  DASHBOARD_MESSAGES,
  type DashboardTrustLine,
  type TokenView,
} from '@ledgerpad/shared';
import { SetLimitModal } from '../../components/set-limit-modal';
import { userMessage } from '../../lib/api';
import { useWalletKinds } from '../../lib/wallet-kinds';
import { dashboardCalls, groupDigits, shortAddress, useDashboardWrite } from './api';

/**
 * A new limit for a line held by one of the user's own wallets (that wallet signs the TrustSet);
 * components/set-limit-modal.tsx is the form.
 */
export function SetLineLimit({
  token,
  line,
  onClose,
}: {
  token: TokenView;
  line: DashboardTrustLine;
  onClose: () => void;
}) {
  const holder = useWalletKinds().get(line.account_address);
  const ticker = currencyToTicker(token.currency);
  const save = useDashboardWrite(
    token.id,
    (limitAmount: string, key) =>
      dashboardCalls.setLimit(
        {
          issuerAddress: token.issuer_address,
          holderAddress: line.account_address,
          currency: token.currency,
          limitAmount,
        },
        key,
        {
          wallet_address: line.account_address,
          kind: holder?.kind,
          wallet_app: holder?.app,
          wallet_name: holder?.name,
        },
      ),
    {
      fallback: DASHBOARD_MESSAGES.setLimitFailed,
      done: (limitAmount) => `Limit set to ${groupDigits(limitAmount)} ${ticker}.`,
      toastErrors: false,
    },
  );

  return (
    <SetLimitModal
      title={`Set ${ticker} limit`}
      description={`The most ${ticker} the wallet ${shortAddress(line.account_address)} will accept.`}
      balance={groupDigits(line.balance)}
      currentLimit={groupDigits(line.limit_amount)}
      placeholder={line.limit_amount}
      pending={save.isPending}
      failure={[
        save.isError ? DASHBOARD_MESSAGES.setLimitFailed : undefined,
        save.isError ? userMessage(save.error) : undefined,
      ]}
      onSubmit={(limitAmount) => save.mutate(limitAmount, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
