// account_lines: trust lines from the account's side, filtered by peer, paged.
import type { JsonObject } from '../../core/contract';
import type { MethodSpec } from '../context';
import { ownedEntries } from '../owner-dir';
import { pageEntries, readDirMarker } from '../paging';
import { optionalAccount, optionalBool, readLimit, requireAccount, resolveLedger } from '../params';
import { lineFromSide, readAccountRoot } from './account-info';
import { LSF } from '../../core/ledger-flags';

const LOW = {
  reserve: LSF.lowReserve,
  auth: LSF.lowAuth,
  noRipple: LSF.lowNoRipple,
  freeze: LSF.lowFreeze,
  deepFreeze: LSF.lowDeepFreeze,
};
const HIGH = {
  reserve: LSF.highReserve,
  auth: LSF.highAuth,
  noRipple: LSF.highNoRipple,
  freeze: LSF.highFreeze,
  deepFreeze: LSF.highDeepFreeze,
};

export const accountLinesMethod: MethodSpec = {
  handler: ({ node, params }) => {
    const account = requireAccount(params);
    const peer = optionalAccount(params, 'peer');
    const ignoreDefault = optionalBool(params, 'ignore_default');
    const limit = readLimit(params, { min: 10, default: 200, max: 400 });
    const start = readDirMarker(params);
    const { view, fields } = resolveLedger(node, params);
    readAccountRoot(view, account, fields);
    const page = pageEntries(ownedEntries(view, account), start, limit, (entry) => {
      if (entry.LedgerEntryType !== 'RippleState') return undefined;
      const line = lineFromSide(entry, account);
      if (peer && line.peer !== peer) return undefined;
      const flags = Number(entry.Flags ?? 0);
      const mine = line.isLow ? LOW : HIGH;
      const theirs = line.isLow ? HIGH : LOW;
      // ignore_default skips lines this account holds only because the peer reserved them.
      if (ignoreDefault && (flags & mine.reserve) === 0) return undefined;
      const out: JsonObject = {
        account: line.peer,
        balance: line.balance,
        currency: line.currency,
        limit: line.limit,
        limit_peer: line.limitPeer,
        quality_in: Number(entry[line.isLow ? 'LowQualityIn' : 'HighQualityIn'] ?? 0),
        quality_out: Number(entry[line.isLow ? 'LowQualityOut' : 'HighQualityOut'] ?? 0),
      };
      if (flags & mine.auth) out.authorized = true;
      if (flags & theirs.auth) out.peer_authorized = true;
      // Present only when set, as rippled 2.4+ prints them.
      if (flags & mine.noRipple) out.no_ripple = true;
      if (flags & theirs.noRipple) out.no_ripple_peer = true;
      if (flags & mine.freeze) out.freeze = true;
      if (flags & theirs.freeze) out.freeze_peer = true;
      if (flags & mine.deepFreeze) out.deep_freeze = true;
      if (flags & theirs.deepFreeze) out.deep_freeze_peer = true;
      return out;
    });
    const result: JsonObject = { account, lines: page.items, ...fields };
    if (params.limit !== undefined) result.limit = limit;
    if (page.marker) result.marker = page.marker;
    return result;
  },
};
