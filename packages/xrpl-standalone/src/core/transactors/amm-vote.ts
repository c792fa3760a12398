// AMMVote (rippled AMMVote.cpp): LP-token-weighted trading fee over at most 8 vote slots.
import type { JsonObject } from '../contract';
import type { Ter } from '../results';
import { applyVote } from '../../amm/governance';
import {
  TRADING_FEE_THRESHOLD,
  ammHolds,
  invalidAssetPair,
  lpHolds,
  readIssueField,
  txAmm,
} from './amm-common';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

export const ammVote: Transactor = {
  preflight({ tx }: PreflightContext): Ter {
    const asset = readIssueField(tx, 'Asset');
    const asset2 = readIssueField(tx, 'Asset2');
    if (!asset || !asset2) return 'temMALFORMED';
    const r = invalidAssetPair(asset, asset2);
    if (r !== 'tesSUCCESS') return r;
    if (tx.TradingFee === undefined) return 'temMALFORMED';
    if (Number(tx.TradingFee) > TRADING_FEE_THRESHOLD) return 'temBAD_FEE';
    return 'tesSUCCESS';
  },

  preclaim({ tx, account, view }: PreclaimContext): Ter {
    const amm = txAmm(view, tx);
    if (!amm) return 'terNO_AMM';
    if (ammHolds(view, amm, undefined, false).lpt.value.isZero()) return 'tecAMM_EMPTY';
    if (lpHolds(view, amm, account).value.isZero()) return 'tecAMM_INVALID_TOKENS';
    return 'tesSUCCESS';
  },

  doApply({ tx, account, view }: ApplyContext): Ter {
    const amm = txAmm(view, tx)!;
    const sle = view.peek(amm.index)!;
    const lpt = ammHolds(view, amm, undefined, false).lpt;
    const slots = (sle.VoteSlots as Array<{ VoteEntry: JsonObject }> | undefined) ?? [];
    const existing = slots.map(({ VoteEntry: v }) => ({
      account: String(v.Account),
      fee: Number(v.TradingFee ?? 0),
      tokens: lpHolds(view, amm, String(v.Account)).value,
    }));
    const outcome = applyVote(
      existing,
      { account, fee: Number(tx.TradingFee), tokens: lpHolds(view, amm, account).value },
      lpt.value,
    );
    sle.VoteSlots = outcome.slots.map((s) => {
      const entry: JsonObject = { Account: s.account, VoteWeight: s.weight };
      if (s.fee !== 0) entry.TradingFee = s.fee;
      return { VoteEntry: entry };
    });
    const slot = sle.AuctionSlot ? { ...(sle.AuctionSlot as JsonObject) } : undefined;
    if (outcome.tradingFee !== 0) sle.TradingFee = outcome.tradingFee;
    else delete sle.TradingFee;
    if (slot) {
      if (outcome.discountedFee !== 0) slot.DiscountedFee = outcome.discountedFee;
      else delete slot.DiscountedFee;
      sle.AuctionSlot = slot;
    }
    view.update(sle);
    return 'tesSUCCESS';
  },
};
