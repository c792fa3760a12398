import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { WALLETS_NOTIFICATION_MS, type AuthMethods } from '@ledgerpad/shared';
import { apiPost, ApiError, isMissingRoute, userMessage } from '../../lib/api';
import { MESSAGES } from './messages';
import { formatToken } from '@ledgerpad/shared';

export type FaucetAsset = 'xrp' | 'rlusd';

const PATHS: Record<FaucetAsset, string> = { xrp: 'fund', rlusd: 'fund-rlusd' };
const UNITS: Record<FaucetAsset, string> = { xrp: 'XRP', rlusd: 'RLUSD' };

const slot = (walletId: number, asset: FaucetAsset) => `${walletId}:${asset}`;

/**
 * Test money (stand-alone and testnet). A faucet route this server lacks (mainnet: no /fund; no
 * /fund-rlusd but on the embedded ledger) answers 404 and its buttons disappear. A 429 shows the
 * server's message and keeps that button disabled for Retry-After seconds.
 */
export function useFaucet(onFunded: () => void, network: AuthMethods['network'] | undefined) {
  const [missing, setMissing] = useState<Record<FaucetAsset, boolean>>({ xrp: false, rlusd: false });
  const [cooldowns, setCooldowns] = useState<Record<string, number>>({});
  const [now, setNow] = useState(() => Date.now());
  const waiting = Object.values(cooldowns).some((until) => until > now);
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waiting]);

  // Several wallets may be funded at once; each button knows whether its own request runs.
  const [running, setRunning] = useState<ReadonlySet<string>>(new Set());

  const fund = async (walletId: number, asset: FaucetAsset) => {
    const key = slot(walletId, asset);
    setRunning((r) => new Set(r).add(key));
    try {
      const res = await apiPost<{ success: true; amount: string }>(
        `/api/wallets/${walletId}/${PATHS[asset]}`,
      );
      toast.success(`Funded with ${formatToken(res.amount)} test ${UNITS[asset]}`, {
        duration: WALLETS_NOTIFICATION_MS,
      });
    } catch (err) {
      if (isMissingRoute(err)) {
        setMissing((m) => ({ ...m, [asset]: true }));
        toast.error(`There is no test ${UNITS[asset]} faucet on this network.`, {
          duration: WALLETS_NOTIFICATION_MS,
        });
        return;
      }
      if (err instanceof ApiError && err.status === 429 && err.retryAfter) {
        setNow(Date.now());
        setCooldowns((c) => ({ ...c, [key]: Date.now() + err.retryAfter! * 1000 }));
      }
      toast.error(userMessage(err, MESSAGES.fundFailed), { duration: WALLETS_NOTIFICATION_MS });
    } finally {
      setRunning((r) => {
        const next = new Set(r);
        next.delete(key);
        return next;
      });
      // Also after a failure: a payment that timed out may still have arrived.
      onFunded();
    }
  };

  return {
    // Test money exists on the embedded ledger (XRP and RLUSD) and on testnet (XRP), never on mainnet.
    available: (asset: FaucetAsset) =>
      !missing[asset] &&
      (asset === 'xrp' ? network === 'standalone' || network === 'testnet' : network === 'standalone'),
    busy: (walletId: number, asset: FaucetAsset) => running.has(slot(walletId, asset)),
    /** Seconds until this button may be used again (0 = now). */
    waitSeconds: (walletId: number, asset: FaucetAsset) =>
      Math.max(0, Math.ceil(((cooldowns[slot(walletId, asset)] ?? 0) - now) / 1000)),
    fund: (walletId: number, asset: FaucetAsset) => void fund(walletId, asset),
  };
}
