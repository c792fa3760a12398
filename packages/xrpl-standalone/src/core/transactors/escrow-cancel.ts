// EscrowCancel (rippled Escrow.cpp): after CancelAfter anyone may return an escrow to its owner.
// Tokens come back from the issuer without a transfer fee; an escrow without CancelAfter can
// never be cancelled.
import { readAccount, xrpBalance } from '../account';
import { isValidAddress } from '../account-id';
import { rulesEnabled } from '../amendments';
import type { Amount } from '../amount/amount';
import type { LedgerEntry } from '../contract';
import { accountRootKey } from '../keylets';
import type { Ter } from '../results';
import { QUALITY_ONE, requireAuth } from '../trust-lines';
import {
  escrowAmount,
  escrowKeyOf,
  hasEscrowTarget,
  releaseEscrow,
  timePassed,
  unlinkEscrow,
  unlinkEscrowFromIssuer,
  unlockTokens,
} from './escrow-common';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

export const escrowCancel: Transactor = {
  preflight({ tx }: PreflightContext): Ter {
    if (!hasEscrowTarget(tx) || !isValidAddress(tx.Owner)) return 'temMALFORMED';
    return 'tesSUCCESS';
  },

  preclaim({ tx, view, rules }: PreclaimContext): Ter {
    if (!rules.enabled('TokenEscrow')) return 'tesSUCCESS';
    const escrow = view.read(escrowKeyOf(tx));
    if (!escrow) return 'tecNO_TARGET';
    const amount = escrowAmount(escrow.Amount);
    if (!amount || amount.kind === 'xrp') return 'tesSUCCESS';
    const owner = escrow.Account as string;
    if (amount.issuer === owner) return 'tecINTERNAL';
    return requireAuth(view, owner, amount.currency, amount.issuer);
  },

  doApply({ tx, view, account, priorBalance }: ApplyContext): Ter {
    const escrow = view.read(escrowKeyOf(tx));
    // With TokenEscrow the missing escrow was caught in preclaim; a miss here is internal.
    if (!escrow) return rulesEnabled('TokenEscrow') ? 'tecINTERNAL' : 'tecNO_TARGET';
    const now = view.ctx.parentCloseTime;
    if (escrow.CancelAfter === undefined || !timePassed(now, escrow.CancelAfter)) return 'tecNO_PERMISSION';

    let ter = unlinkEscrow(view, escrow);
    if (ter !== 'tesSUCCESS') return ter;
    const owner = escrow.Account as string;
    const amount = escrowAmount(escrow.Amount) as Amount;
    if (amount.kind === 'xrp') {
      const root = view.peek(accountRootKey(owner)) as LedgerEntry;
      root.Balance = (xrpBalance(root) + amount.drops).toString();
      view.update(root);
    } else {
      if (!readAccount(view, owner)) return 'tecINTERNAL';
      ter = unlockTokens(view, {
        lockedRate: QUALITY_ONE,
        currency: amount.currency,
        issuer: amount.issuer,
        value: amount.value,
        sender: owner,
        receiver: owner,
        createAsset: owner === account,
        priorBalance,
      });
      if (ter !== 'tesSUCCESS') return ter;
      ter = unlinkEscrowFromIssuer(view, escrow, amount.issuer);
      if (ter !== 'tesSUCCESS') return ter;
    }
    releaseEscrow(view, escrow);
    return 'tesSUCCESS';
  },
};
