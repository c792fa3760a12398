import type { Client } from 'xrpl';

// The one place tests read balances from the ledger itself (not through our API), so every test
// compares against the same reading: the validated ledger unless a test names another.

/** The account's XRP balance in drops. */
export async function xrpBalance(
  client: Client,
  account: string,
  ledger: 'validated' | 'current' | number = 'validated',
): Promise<bigint> {
  const r = await client.request({ command: 'account_info', account, ledger_index: ledger });
  return BigInt(r.result.account_data.Balance);
}

/** The account's balance of an issued token ('0' without a trust line), as the ledger writes it. */
export async function tokenBalance(
  client: Client,
  account: string,
  issuer: string,
  currency: string,
): Promise<string> {
  const r = await client.request({
    command: 'account_lines',
    account,
    peer: issuer,
    ledger_index: 'validated',
  });
  return r.result.lines.find((l) => l.currency === currency)?.balance ?? '0';
}
