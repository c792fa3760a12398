// book_offers: one order book, best quality first, with each owner's funds and the funded part of
// each offer as rippled's NetworkOPs::getBookPage computes them.
import { isValidClassicAddress } from 'ripple-address-codec';
import type { JsonObject } from '../../core/contract';
import { Num } from '../../core/number';
import { type Amt, type Issue, isXrp, toAmt } from '../../amm/amount';
import { stDivide } from '../../amm/st-math';
import { bookOffers, orderedFromEntries } from '../../core/book/book-walk';
import { qualityRate } from '../../core/book/quality';
import {
  accountFunds,
  amtFromJson,
  amtToJson,
  isGlobalFrozen,
  issueFromJson,
  numberText,
  transferRate,
} from '../../core/book/read';
import type { MethodSpec } from '../context';
import { RpcError, missingField } from '../errors';
import { isObject, readLimit, resolveLedger } from '../params';

const QUALITY_ONE = 1_000_000_000;

function readBookSide(params: JsonObject, field: 'taker_gets' | 'taker_pays'): Issue {
  const value = params[field];
  if (value === undefined) throw missingField(field);
  if (!isObject(value)) throw new RpcError('invalidParams', `Invalid field '${field}', not object.`);
  if (typeof value.currency !== 'string') {
    throw new RpcError(field === 'taker_pays' ? 'srcCurMalformed' : 'dstAmtMalformed');
  }
  const issue = issueFromJson(value);
  if (!issue) throw new RpcError(field === 'taker_pays' ? 'srcIsrMalformed' : 'dstAmtMalformed');
  if (!isXrp(issue) && !isValidClassicAddress(issue.issuer)) {
    throw new RpcError(field === 'taker_pays' ? 'srcIsrMalformed' : 'badIssuer');
  }
  return issue;
}

function text(a: Amt): string {
  const j = amtToJson(a);
  return typeof j === 'string' ? j : (j.value ?? '0');
}

export const bookOffersMethod: MethodSpec = {
  handler: ({ node, params }) => {
    const takerPays = readBookSide(params, 'taker_pays');
    const takerGets = readBookSide(params, 'taker_gets');
    let taker = '';
    if (params.taker !== undefined) {
      if (typeof params.taker !== 'string' || !isValidClassicAddress(params.taker)) {
        throw new RpcError('invalidParams', "Invalid field 'taker'.");
      }
      taker = params.taker;
    }
    if (
      isXrp(takerPays) === isXrp(takerGets) &&
      takerPays.currency === takerGets.currency &&
      takerPays.issuer === takerGets.issuer
    ) {
      throw new RpcError('badMarket');
    }
    const limit = readLimit(params, { min: 0, default: 60, max: 100 });
    const { view, fields } = resolveLedger(node, params);
    const cfg = node.config;
    const rate = isXrp(takerGets) ? QUALITY_ONE : transferRate(view, takerGets.issuer);
    const frozen =
      (!isXrp(takerGets) && isGlobalFrozen(view, takerGets.issuer)) ||
      (!isXrp(takerPays) && isGlobalFrozen(view, takerPays.issuer));
    const remaining = new Map<string, Amt>();
    const offers: JsonObject[] = [];
    for (const { quality, offer } of bookOffers(orderedFromEntries(view), takerPays, takerGets)) {
      if (offers.length >= limit && limit > 0) break;
      const owner = String(offer.Account);
      const gets = amtFromJson(offer.TakerGets);
      const pays = amtFromJson(offer.TakerPays);
      let first = true;
      let funds: Amt;
      if (!isXrp(takerGets) && owner === takerGets.issuer) {
        funds = gets;
      } else if (frozen) {
        funds = { issue: takerGets, value: Num.zero };
      } else if (remaining.has(owner)) {
        funds = remaining.get(owner)!;
        first = false;
      } else {
        funds = accountFunds(view, owner, takerGets, cfg);
      }
      const dirRate = qualityRate(quality);
      const out: JsonObject = { ...offer };
      let fundsLimit = funds;
      let offerRate = QUALITY_ONE;
      if (rate !== QUALITY_ONE && taker !== takerGets.issuer && owner !== takerGets.issuer) {
        offerRate = rate;
        fundsLimit = toAmt(takerGets, stDivide(funds.value, Num.of(rate, -9)));
      }
      let getsFunded: Amt;
      if (fundsLimit.value.ge(gets.value)) {
        getsFunded = gets;
      } else {
        getsFunded = fundsLimit;
        out.taker_gets_funded = amtToJson(getsFunded);
        const paysFunded = toAmt(pays.issue, getsFunded.value.mul(dirRate));
        out.taker_pays_funded = amtToJson(paysFunded.value.lt(pays.value) ? paysFunded : pays);
      }
      const ownerPays =
        offerRate === QUALITY_ONE
          ? getsFunded
          : toAmt(takerGets, getsFunded.value.mul(Num.of(offerRate, -9)));
      const left = funds.value.sub(ownerPays.value.lt(funds.value) ? ownerPays.value : funds.value);
      remaining.set(owner, { issue: takerGets, value: left });
      out.quality = numberText(dirRate);
      if (first) out.owner_funds = text(funds);
      offers.push(out);
    }
    return { offers, ...fields };
  },
};
