// noripple_check: advice (and fixing transactions) on DefaultRipple / NoRipple for a gateway or user.
import type { JsonObject } from '../../core/contract';
import type { MethodSpec } from '../context';
import { RpcError, invalidField, missingField } from '../errors';
import { ownedEntries } from '../owner-dir';
import { optionalBool, readLimit, requireAccount, resolveLedger } from '../params';
import { readAccountRoot } from './account-info';
import { ASF, LSF, TF } from '../../core/ledger-flags';

export const norippleCheckMethod: MethodSpec = {
  handler: ({ node, params }) => {
    const account = requireAccount(params);
    if (params.role === undefined) throw missingField('role');
    if (params.role !== 'gateway' && params.role !== 'user')
      throw new RpcError('invalidParams', 'role field is invalid');
    const gateway = params.role === 'gateway';
    const wantTransactions = optionalBool(params, 'transactions');
    let limit = readLimit(params, { min: 1, default: 300, max: 500 });
    if (params.limit !== undefined && typeof params.limit !== 'number') throw invalidField('limit');
    const { view, fields } = resolveLedger(node, params);
    const root = readAccountRoot(view, account, fields);
    let seq = Number(root.Sequence);
    // rippled prints the suggested Fee as a JSON number here (fillTransaction), unlike in transactions.
    const fee = Number(node.config.baseFee);
    const problems: string[] = [];
    const transactions: JsonObject[] = [];
    const fill = (tx: JsonObject): void => {
      transactions.push({ ...tx, Sequence: seq, Account: account, Fee: fee });
      seq += 1;
    };
    const defaultRipple = (Number(root.Flags ?? 0) & LSF.defaultRipple) !== 0;
    if (defaultRipple && !gateway) {
      problems.push(
        'You appear to have set your default ripple flag even though you are not a gateway. This is not recommended unless you are experimenting',
      );
    } else if (gateway && !defaultRipple) {
      problems.push('You should immediately set your default ripple flag');
      fill({ TransactionType: 'AccountSet', SetFlag: ASF.defaultRipple });
    }
    for (const entry of ownedEntries(view, account)) {
      if (limit <= 0) break;
      if (entry.LedgerEntryType !== 'RippleState') continue;
      const low = entry.LowLimit as { currency: string; issuer: string; value: string };
      const high = entry.HighLimit as { currency: string; issuer: string; value: string };
      const isLow = low.issuer === account;
      const noRipple = (Number(entry.Flags ?? 0) & (isLow ? LSF.lowNoRipple : LSF.highNoRipple)) !== 0;
      let problem: string;
      if (noRipple && gateway) problem = 'You should clear the no ripple flag on your ';
      else if (!gateway && !noRipple) problem = 'You should probably set the no ripple flag on your ';
      else continue;
      limit -= 1;
      const peerLimit = isLow ? high : low;
      const myLimit = isLow ? low : high;
      problems.push(`${problem}${peerLimit.currency} line to ${peerLimit.issuer}`);
      fill({
        TransactionType: 'TrustSet',
        LimitAmount: { currency: myLimit.currency, issuer: peerLimit.issuer, value: myLimit.value },
        Flags: noRipple ? TF.clearNoRipple : TF.setNoRipple,
      });
    }
    const result: JsonObject = { problems, ...fields };
    if (wantTransactions) result.transactions = transactions;
    return result;
  },
};
