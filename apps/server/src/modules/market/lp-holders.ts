import { BLACKHOLE_ADDRESSES, Decimal } from '@ledgerpad/shared';
import type { Client } from 'xrpl';
import { readIssuerFacts } from '../../ledger/account-root';

// Who holds a pool's LP tokens, and which of them can never sign again (burned): read from the
// validated ledger one way for the risk panel (risk.ts) and the token list's mark (lp-burns.ts).

/** LP holders checked for a black hole (the largest first); the rest count as withdrawable. */
const LP_HOLDERS_CHECKED = 20;
/** Pages of an account's trust lines read (400 each). */
const MAX_LINE_PAGES = 25;

/** An account's trust lines on the validated ledger, up to `maxPages` pages. */
export async function lines(client: Client, account: string, maxPages = MAX_LINE_PAGES) {
  const out: Array<{
    account: string;
    balance: string;
    currency: string;
    freeze?: boolean;
    deep_freeze?: boolean;
  }> = [];
  let marker: unknown;
  for (let page = 0; page < maxPages; page++) {
    const r = await client.request({
      command: 'account_lines',
      account,
      ledger_index: 'validated',
      limit: 400,
      ...(marker ? { marker } : {}),
    });
    out.push(...(r.result.lines as typeof out));
    marker = r.result.marker;
    if (!marker) break;
  }
  return out;
}

/** A holder that can never sign again (a black-hole address, or a blackholed account) burned its LP tokens. */
async function canNeverSign(client: Client, account: string): Promise<boolean> {
  if ((BLACKHOLE_ADDRESSES as readonly string[]).includes(account)) return true;
  try {
    return (await readIssuerFacts(client, account)).blackholed;
  } catch {
    return false;
  }
}

/** A pool's LP tokens: the total, and the largest holders with whether they can ever withdraw. */
export interface LpBurn {
  supply: string;
  holders: Array<{ account: string; balance: string; burned: boolean }>;
}

/**
 * A pool's LP tokens and their largest holders (the AMM account's trust lines in its LP currency),
 * each with whether it can never sign again: the risk panel's and the token list's 'LP burned'.
 */
export async function readLpBurn(
  client: Client,
  pool: { account: string; lpCurrency: string; lpSupply: string },
): Promise<LpBurn> {
  const top = (await lines(client, pool.account, 1))
    .filter((l) => l.currency === pool.lpCurrency)
    .map((l) => ({ account: l.account, balance: new Decimal(l.balance).neg() }))
    .filter((h) => h.balance.gt(0))
    .sort((a, b) => b.balance.cmp(a.balance))
    .slice(0, LP_HOLDERS_CHECKED);
  return {
    supply: pool.lpSupply,
    holders: await Promise.all(
      top.map(async (h) => ({
        account: h.account,
        balance: h.balance.toFixed(),
        burned: await canNeverSign(client, h.account),
      })),
    ),
  };
}

/** The share of the pool's LP tokens held by accounts that can never sign, in percent (2 places). */
export function lpBurnedPercent(lp: LpBurn): string {
  const burned = lp.holders.filter((h) => h.burned).reduce((s, h) => s.plus(h.balance), new Decimal(0));
  const supply = new Decimal(lp.supply);
  return supply.gt(0) ? burned.div(supply).mul(100).toDecimalPlaces(2).toFixed() : '0';
}
