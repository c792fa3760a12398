// EscrowFinish (rippled Escrow.cpp): deliver an escrow to its destination once FinishAfter has
// passed (and before CancelAfter), with the fulfillment of its condition if it has one. Anyone may
// submit it; a fulfillment costs extra fee (base × (32 + bytes / 16)).
import { readAccount } from '../account';
import { rulesEnabled } from '../amendments';
import { isValidAddress } from '../account-id';
import type { CoreConfig, JsonObject } from '../contract';
import { fulfillmentMatches } from '../crypto-condition';
import { depositPreauthKey } from '../keylets';
import { LSF, hasFlag } from '../ledger-flags';
import type { Ter } from '../results';
import { QUALITY_ONE, isDeepFrozen, requireAuth } from '../trust-lines';
import { closeEscrow, escrowAmount, escrowKeyOf, hasEscrowTarget, timePassed } from './escrow-common';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

/** rippled credentials::checkFields: 1 to 8 distinct credential IDs. */
const MAX_CREDENTIALS = 8;

export function credentialIdsMalformed(tx: JsonObject): boolean {
  const ids = tx.CredentialIDs;
  if (ids === undefined) return false;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_CREDENTIALS) return true;
  return new Set(ids).size !== ids.length;
}

export const escrowFinish: Transactor = {
  preflight({ tx, rules }: PreflightContext): Ter {
    if (tx.CredentialIDs !== undefined && !rules.enabled('Credentials')) return 'temDISABLED';
    if (!hasEscrowTarget(tx) || !isValidAddress(tx.Owner)) return 'temMALFORMED';
    // A condition and its fulfillment come together or not at all.
    if ((tx.Condition === undefined) !== (tx.Fulfillment === undefined)) return 'temMALFORMED';
    if (credentialIdsMalformed(tx)) return 'temMALFORMED';
    return 'tesSUCCESS';
  },

  baseFee(tx: JsonObject, config: CoreConfig): bigint {
    const fulfillment = tx.Fulfillment;
    if (typeof fulfillment !== 'string') return config.baseFee;
    return config.baseFee + config.baseFee * BigInt(32 + Math.floor(fulfillment.length / 2 / 16));
  },

  preclaim({ tx, view, rules }: PreclaimContext): Ter {
    // Credential objects are not implemented on this ledger, so none of the IDs can exist.
    if (rules.enabled('Credentials') && tx.CredentialIDs !== undefined) return 'tecBAD_CREDENTIALS';
    if (!rules.enabled('TokenEscrow')) return 'tesSUCCESS';
    const escrow = view.read(escrowKeyOf(tx));
    if (!escrow) return 'tecNO_TARGET';
    const amount = escrowAmount(escrow.Amount);
    if (!amount || amount.kind === 'xrp') return 'tesSUCCESS';
    const dest = escrow.Destination as string;
    if (amount.issuer === dest) return 'tesSUCCESS';
    const ter = requireAuth(view, dest, amount.currency, amount.issuer);
    if (ter !== 'tesSUCCESS') return ter;
    if (isDeepFrozen(view, dest, amount.currency, amount.issuer)) return 'tecFROZEN';
    return 'tesSUCCESS';
  },

  doApply({ tx, view, account, priorBalance }: ApplyContext): Ter {
    const escrow = view.read(escrowKeyOf(tx));
    // With TokenEscrow the missing escrow was caught in preclaim; a miss here is internal.
    if (!escrow) return rulesEnabled('TokenEscrow') ? 'tecINTERNAL' : 'tecNO_TARGET';
    const now = view.ctx.parentCloseTime;
    if (escrow.FinishAfter !== undefined && !timePassed(now, escrow.FinishAfter)) return 'tecNO_PERMISSION';
    if (escrow.CancelAfter !== undefined && timePassed(now, escrow.CancelAfter)) return 'tecNO_PERMISSION';

    const condition = tx.Condition as string | undefined;
    if (condition !== undefined && !fulfillmentMatches(tx.Fulfillment as string, condition))
      return 'tecCRYPTOCONDITION_ERROR';
    // The escrow's condition, if any, must be presented again exactly (and none if it has none).
    if (escrow.Condition === undefined ? condition !== undefined : escrow.Condition !== condition)
      return 'tecCRYPTOCONDITION_ERROR';

    const dest = escrow.Destination as string;
    const sled = readAccount(view, dest);
    if (!sled) return 'tecNO_DST';
    // rippled verifyDepositPreauth: a DepositAuth destination finishes itself or preauthorizes.
    if (
      hasFlag(sled.Flags, LSF.depositAuth) &&
      account !== dest &&
      !view.exists(depositPreauthKey(dest, account))
    )
      return 'tecNO_PERMISSION';

    return closeEscrow(view, escrow, {
      receiver: dest,
      lockedRate: escrow.TransferRate === undefined ? QUALITY_ONE : BigInt(escrow.TransferRate as number),
      submitter: account,
      priorBalance,
    });
  },
};
