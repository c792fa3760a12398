import type { Client } from 'xrpl';
import { Wallet, AccountSetAsfFlags, rippleTimeToUnixTime } from 'xrpl';
import { tickerToCurrency } from '@ledgerpad/shared';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { submitOk } from '../helpers/submit-and-wait';

// A real token issuer on the embedded ledger, made with xrpl.js the way any ledger user would:
// funded from the stand-alone genesis account, DefaultRipple set, holders' trust lines, amounts
// issued, and (optionally) blackholed. Test fixture only: the app itself never signs like this.

const ASF_DEFAULT_RIPPLE = AccountSetAsfFlags.asfDefaultRipple;
const ASF_DISABLE_MASTER = AccountSetAsfFlags.asfDisableMaster;
export const ACCOUNT_ONE = 'rrrrrrrrrrrrrrrrrrrrBZbvji';

const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);

const submit = submitOk;

/** When a validated transaction's ledger closed, as the `tx` answer says. */
export function closedAt(res: { close_time_iso?: string; tx_json?: { date?: number } }): Date {
  if (res.close_time_iso) return new Date(res.close_time_iso);
  return new Date(rippleTimeToUnixTime(res.tx_json!.date!));
}

/**
 * A new account funded with `xrp` XRP from `source` (default: genesis, which nothing else signs for
 * in a test app without the platform bootstrap). Calls are serialized: a source has one sequence.
 */
export async function fundedAccount(client: Client, xrp = 100, source: Wallet = genesis): Promise<Wallet> {
  const wallet = Wallet.generate();
  await submit(client, source, {
    TransactionType: 'Payment',
    Account: source.address,
    Destination: wallet.address,
    Amount: String(xrp * 1_000_000),
  });
  return wallet;
}

export interface IssueOptions {
  /** Ticker as people write it; longer than 3 characters becomes the 40-hex code. */
  ticker: string;
  /** Amounts issued, one holder each (decimal strings). */
  amounts: string[];
  blackhole?: boolean;
  /** Reuse an issuer (a second currency of the same account). */
  issuer?: Wallet;
  /** Where the new accounts' XRP comes from (default genesis). */
  funder?: Wallet;
}

/** Issues `ticker` to one new holder per amount; returns the issuer and the ledger currency code. */
export async function issueToken(
  client: Client,
  opts: IssueOptions,
): Promise<{ issuer: Wallet; currency: string; holders: Wallet[]; firstLineAt: Date | null }> {
  const currency = tickerToCurrency(opts.ticker);
  let issuer = opts.issuer;
  if (!issuer) {
    issuer = await fundedAccount(client, 100, opts.funder);
    await submit(client, issuer, {
      TransactionType: 'AccountSet',
      Account: issuer.address,
      SetFlag: ASF_DEFAULT_RIPPLE,
    });
  }
  const holders: Wallet[] = [];
  let firstLineAt: Date | null = null;
  for (const value of opts.amounts) {
    const holder = await fundedAccount(client, 20, opts.funder);
    holders.push(holder);
    const line = await submit(client, holder, {
      TransactionType: 'TrustSet',
      Account: holder.address,
      LimitAmount: { currency, issuer: issuer.address, value: '1000000000' },
    });
    firstLineAt ??= closedAt(line as Parameters<typeof closedAt>[0]);
    await submit(client, issuer, {
      TransactionType: 'Payment',
      Account: issuer.address,
      Destination: holder.address,
      Amount: { currency, issuer: issuer.address, value },
    });
  }
  if (opts.blackhole) await blackhole(client, issuer);
  return { issuer, currency, holders, firstLineAt };
}

/** SetRegularKey to ACCOUNT_ONE, then disable the master key: nobody can sign for it again. */
export async function blackhole(client: Client, issuer: Wallet): Promise<void> {
  await submit(client, issuer, {
    TransactionType: 'SetRegularKey',
    Account: issuer.address,
    RegularKey: ACCOUNT_ONE,
  });
  await submit(client, issuer, {
    TransactionType: 'AccountSet',
    Account: issuer.address,
    SetFlag: ASF_DISABLE_MASTER,
  });
}
