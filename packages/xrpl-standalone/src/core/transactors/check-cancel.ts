// CheckCancel (rippled CancelCheck.cpp): the writer or the destination may cancel a Check at any
// time, anyone once it has expired; it leaves both directories and frees the writer's reserve.
import type { Ter } from '../results';
import { checkIdOf, hasExpired, isZeroCheckId, removeCheck } from './check-common';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

export const checkCancel: Transactor = {
  preflight({ tx, rules }: PreflightContext): Ter {
    if (typeof tx.CheckID !== 'string') return 'temMALFORMED';
    if (rules.enabled('fixCleanup3_3_0') && isZeroCheckId(tx)) return 'temMALFORMED';
    return 'tesSUCCESS';
  },

  preclaim({ tx, view, account, parentCloseTime }: PreclaimContext): Ter {
    const check = view.read(checkIdOf(tx));
    if (!check || check.LedgerEntryType !== 'Check') return 'tecNO_ENTRY';
    if (!hasExpired(parentCloseTime ?? 0, check.Expiration)) {
      if (account !== check.Account && account !== check.Destination) return 'tecNO_PERMISSION';
    }
    return 'tesSUCCESS';
  },

  doApply({ tx, view }: ApplyContext): Ter {
    const check = view.read(checkIdOf(tx));
    if (!check) return 'tecNO_ENTRY';
    return removeCheck(view, check);
  },
};
