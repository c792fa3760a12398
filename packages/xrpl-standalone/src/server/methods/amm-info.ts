// amm_info: an AMM's pool, LP token balance, fee votes and auction slot, looked up by asset pair
// or by the AMM's pseudo-account (rippled AMMInfo.cpp).
import { isValidClassicAddress } from 'ripple-address-codec';
import type { JsonObject, LedgerEntry, LedgerView } from '../../core/contract';
import { type Issue, isXrp } from '../../amm/amount';
import { auctionTimeSlot } from '../../amm/governance';
import { AUCTION_SLOT_TIME_INTERVALS } from '../../amm/math';
import {
  ammPoolBalance,
  ammStateOf,
  amtToJson,
  isFrozen,
  issueFromJson,
  lpHolding,
  readAccount,
  readAmm,
  type AmmState,
} from '../../core/book/read';
import type { MethodSpec } from '../context';
import { RpcError } from '../errors';
import { isObject, resolveLedger } from '../params';
import { RIPPLE_EPOCH_OFFSET } from '../../core/ledger-node';

/** rippled to_iso8601 of a NetClock time: "2023-11-07T21:17:42+0000". */
function iso8601(rippleSeconds: number): string {
  return new Date((RIPPLE_EPOCH_OFFSET + rippleSeconds) * 1000).toISOString().replace(/\.\d{3}Z$/, '+0000');
}

function readIssue(params: JsonObject, field: string): Issue {
  const value = params[field];
  if (!isObject(value)) throw new RpcError('issueMalformed');
  const issue = issueFromJson(value);
  if (!issue || (!isXrp(issue) && !isValidClassicAddress(issue.issuer))) throw new RpcError('issueMalformed');
  return issue;
}

function findByAccount(view: LedgerView, account: string): AmmState | undefined {
  const root = readAccount(view, account);
  const ammId = root?.AMMID;
  if (typeof ammId !== 'string') return undefined;
  const sle = view.read(ammId);
  return sle ? ammStateOf(ammId, sle) : undefined;
}

export const ammInfoMethod: MethodSpec = {
  handler: ({ node, params }) => {
    const byPair = params.asset !== undefined || params.asset2 !== undefined;
    const byAccount = params.amm_account !== undefined;
    if (byPair === byAccount) throw new RpcError('invalidParams');
    let account: string | undefined;
    if (params.account !== undefined) {
      if (typeof params.account !== 'string' || !isValidClassicAddress(params.account)) {
        throw new RpcError('actMalformed');
      }
      account = params.account;
    }
    const { view, fields } = resolveLedger(node, params);
    let amm: AmmState | undefined;
    let issue1: Issue;
    let issue2: Issue;
    if (byPair) {
      if (params.asset === undefined || params.asset2 === undefined) throw new RpcError('invalidParams');
      issue1 = readIssue(params, 'asset');
      issue2 = readIssue(params, 'asset2');
      amm = readAmm(view, issue1, issue2);
    } else {
      const ammAccount = params.amm_account;
      if (typeof ammAccount !== 'string' || !isValidClassicAddress(ammAccount))
        throw new RpcError('actMalformed');
      amm = findByAccount(view, ammAccount);
      issue1 = amm?.asset ?? { currency: 'XRP', issuer: '' };
      issue2 = amm?.asset2 ?? { currency: 'XRP', issuer: '' };
    }
    if (!amm) throw new RpcError('actNotFound');
    if (account !== undefined && !readAccount(view, account)) throw new RpcError('actMalformed');
    const result: JsonObject = {
      account: amm.account,
      amount: amtToJson(ammPoolBalance(view, amm.account, issue1)),
      amount2: amtToJson(ammPoolBalance(view, amm.account, issue2)),
      lp_token: amtToJson(account !== undefined ? lpHolding(view, amm, account) : amm.lptBalance),
      trading_fee: amm.tradingFee,
    };
    const votes = (amm.sle.VoteSlots as Array<{ VoteEntry: LedgerEntry }> | undefined) ?? [];
    if (votes.length > 0) {
      result.vote_slots = votes.map(({ VoteEntry: v }) => ({
        account: v.Account,
        trading_fee: Number(v.TradingFee ?? 0),
        vote_weight: Number(v.VoteWeight ?? 0),
      }));
    }
    const slot = amm.sle.AuctionSlot as JsonObject | undefined;
    if (slot && slot.Account !== undefined) {
      const expiration = Number(slot.Expiration ?? 0);
      const interval = auctionTimeSlot(view.header.parent_close_time, expiration);
      const auction: JsonObject = {
        account: slot.Account,
        discounted_fee: Number(slot.DiscountedFee ?? 0),
        expiration: iso8601(expiration),
        price: slot.Price,
        time_interval: interval ?? AUCTION_SLOT_TIME_INTERVALS,
      };
      const auth = slot.AuthAccounts as Array<{ AuthAccount: { Account: string } }> | undefined;
      if (auth && auth.length > 0)
        auction.auth_accounts = auth.map((a) => ({ account: a.AuthAccount.Account }));
      result.auction_slot = auction;
    }
    if (!isXrp(issue1)) result.asset_frozen = isFrozen(view, amm.account, issue1);
    if (!isXrp(issue2)) result.asset2_frozen = isFrozen(view, amm.account, issue2);
    return { amm: result, ...fields };
  },
};
