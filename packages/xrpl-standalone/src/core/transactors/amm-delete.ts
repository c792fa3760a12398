// AMMDelete (rippled AMMDelete.cpp): remove an AMM whose LP token balance is zero.
import type { Ter } from '../results';
import { ammHolds, deleteAmmAccount, invalidAssetPair, readIssueField, txAmm } from './amm-common';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

export const ammDelete: Transactor = {
  preflight({ tx }: PreflightContext): Ter {
    const asset = readIssueField(tx, 'Asset');
    const asset2 = readIssueField(tx, 'Asset2');
    if (!asset || !asset2) return 'temMALFORMED';
    return invalidAssetPair(asset, asset2);
  },

  preclaim({ tx, view }: PreclaimContext): Ter {
    const amm = txAmm(view, tx);
    if (!amm) return 'terNO_AMM';
    if (!ammHolds(view, amm, undefined, false).lpt.value.isZero()) return 'tecAMM_NOT_EMPTY';
    return 'tesSUCCESS';
  },

  doApply({ tx, view }: ApplyContext): Ter {
    const amm = txAmm(view, tx)!;
    return deleteAmmAccount(view, amm);
  },
};
