// EscrowCancel (rippled Escrow.cpp): after CancelAfter anyone may return an escrow to its owner.
// Tokens come back from the issuer without a transfer fee; an escrow without CancelAfter can
// never be cancelled.
import { isValidAddress } from '../account-id';
import { rulesEnabled } from '../amendments';
import type { Ter } from '../results';
import { QUALITY_ONE, requireAuth } from '../trust-lines';
import { closeEscrow, escrowAmount, escrowKeyOf, hasEscrowTarget, timePassed } from './escrow-common';
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

    return closeEscrow(view, escrow, {
      receiver: escrow.Account as string,
      lockedRate: QUALITY_ONE,
      submitter: account,
      priorBalance,
    });
  },
};
