// AMMBid (rippled AMMBid.cpp): buy the auction slot with LP tokens; the previous owner is refunded
// the unused share of its price and the rest is burned.
import type { JsonObject } from '../contract';
import type { Num } from '../number';
import type { Ter } from '../results';
import { type Amt, sameIssue, subAmt, toAmt } from '../../amm/amount';
import { TAILING_SLOT, auctionTimeSlot, minSlotPrice, outbidPrice, payPrice } from '../../amm/governance';
import {
  AUCTION_SLOT_DISCOUNTED_FEE_FRACTION,
  AUCTION_SLOT_MAX_AUTH_ACCOUNTS,
  TOTAL_TIME_SLOT_SECS,
  adjustLPTokens,
} from '../../amm/math';
import { amtFromJson, amtToJson, readAccount } from '../book/read';
import {
  TerError,
  ammHolds,
  invalidAmount,
  invalidAssetPair,
  lpHolds,
  readAmountField,
  readIssueField,
  sendOrThrow,
  txAmm,
} from './amm-common';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

function authAccounts(tx: JsonObject): string[] {
  const list = (tx.AuthAccounts as Array<{ AuthAccount: { Account: string } }> | undefined) ?? [];
  return list.map((a) => a.AuthAccount.Account);
}

export const ammBid: Transactor = {
  preflight({ tx }: PreflightContext): Ter {
    const asset = readIssueField(tx, 'Asset');
    const asset2 = readIssueField(tx, 'Asset2');
    if (!asset || !asset2) return 'temMALFORMED';
    const r = invalidAssetPair(asset, asset2);
    if (r !== 'tesSUCCESS') return r;
    for (const field of ['BidMin', 'BidMax']) {
      const a = readAmountField(tx, field);
      if (a) {
        const ter = invalidAmount(a);
        if (ter !== 'tesSUCCESS') return ter;
      }
    }
    const auth = authAccounts(tx);
    if (auth.length > AUCTION_SLOT_MAX_AUTH_ACCOUNTS) return 'temMALFORMED';
    if (auth.includes(String(tx.Account)) || new Set(auth).size !== auth.length) return 'temMALFORMED';
    return 'tesSUCCESS';
  },

  preclaim({ tx, account, view }: PreclaimContext): Ter {
    const amm = txAmm(view, tx);
    if (!amm) return 'terNO_AMM';
    const lpt = ammHolds(view, amm, undefined, false).lpt;
    if (lpt.value.isZero()) return 'tecAMM_EMPTY';
    for (const a of authAccounts(tx)) if (!readAccount(view, a)) return 'terNO_ACCOUNT';
    const held = lpHolds(view, amm, account);
    if (held.value.isZero()) return 'tecAMM_INVALID_TOKENS';
    const bidMin = readAmountField(tx, 'BidMin');
    const bidMax = readAmountField(tx, 'BidMax');
    for (const b of [bidMin, bidMax]) {
      if (!b) continue;
      if (!sameIssue(b.issue, lpt.issue)) return 'temBAD_AMM_TOKENS';
      if (b.value.gt(held.value)) return 'tecAMM_INVALID_TOKENS';
    }
    if (bidMin && bidMax && bidMin.value.gt(bidMax.value)) return 'tecAMM_INVALID_TOKENS';
    return 'tesSUCCESS';
  },

  doApply({ tx, account, view: parent }: ApplyContext): Ter {
    const view = parent.sandbox();
    const amm = txAmm(view, tx)!;
    const sle = view.peek(amm.index)!;
    const current = view.ctx.parentCloseTime;
    const lpt = ammHolds(view, amm, undefined, false).lpt;
    const held = lpHolds(view, amm, account);
    const tradingFee = Number(sle.TradingFee ?? 0);
    const discountedFee = Math.trunc(tradingFee / AUCTION_SLOT_DISCOUNTED_FEE_FRACTION);
    const minPrice = minSlotPrice(lpt.value, tradingFee);
    const slot = { ...((sle.AuctionSlot as JsonObject | undefined) ?? {}) };
    const interval =
      slot.Expiration === undefined ? undefined : auctionTimeSlot(current, Number(slot.Expiration));
    const owner = slot.Account as string | undefined;
    const validOwner =
      owner !== undefined &&
      interval !== undefined &&
      interval < TAILING_SLOT &&
      readAccount(view, owner) !== undefined;
    const bidMin = readAmountField(tx, 'BidMin')?.value;
    const bidMax = readAmountField(tx, 'BidMax')?.value;
    const pay = (computed: Num): Num | Ter => {
      const p = payPrice(computed, bidMin, bidMax);
      if (!p) return 'tecAMM_FAILED';
      if (p.gt(held.value)) return 'tecAMM_INVALID_TOKENS';
      return p;
    };
    const update = (price: Num, burn: Num): Ter => {
      slot.Account = account;
      slot.Expiration = current + TOTAL_TIME_SLOT_SECS;
      if (discountedFee !== 0) slot.DiscountedFee = discountedFee;
      else delete slot.DiscountedFee;
      slot.Price = amtToJson(toAmt(lpt.issue, price));
      const auth = tx.AuthAccounts as unknown[] | undefined;
      if (auth && auth.length > 0) slot.AuthAccounts = auth;
      else delete slot.AuthAccounts;
      const burnAmt: Amt = adjustLPTokens(lpt, toAmt(lpt.issue, burn), false);
      if (burnAmt.value.ge(lpt.value)) return 'tecINTERNAL';
      sendOrThrow(view, account, amm.account, burnAmt);
      sle.AuctionSlot = slot;
      sle.LPTokenBalance = amtToJson(subAmt(lpt, burnAmt));
      view.update(sle);
      return 'tesSUCCESS';
    };
    let ter: Ter;
    try {
      if (!validOwner) {
        const p = pay(minPrice);
        if (typeof p === 'string') return p;
        ter = update(p, p);
      } else {
        const purchased = amtFromJson(slot.Price).value;
        const { price, refund } = outbidPrice(purchased, interval, minPrice);
        const p = pay(price);
        if (typeof p === 'string') return p;
        if (refund.gt(p)) return 'tecINTERNAL';
        sendOrThrow(view, account, owner, toAmt(lpt.issue, refund));
        ter = update(p, p.sub(refund));
      }
    } catch (e) {
      if (e instanceof TerError) return e.ter;
      throw e;
    }
    if (ter === 'tesSUCCESS') view.apply();
    return ter;
  },
};
