import { useEffect, useRef, useState } from 'react';
import { LIVE_PRICE_DEBOUNCE_MS, TRADE_FLASH_MS, tradeMatchesToken, type NewTrade } from '@ledgerpad/shared';
import { onSocketEvent, subscribeToken } from '../../lib/live-socket';

export interface LiveTrades {
  /** The latest trade price in the quote asset, debounced 500 ms; null before the first trade. */
  price: string | null;
  /** 'buy' or 'sell' for 500 ms after each of the token's trades. */
  flash: 'buy' | 'sell' | null;
}

/**
 * The token's live trades from the socket (spec 000 §4, 001 §4): subscribes to the token, ignores
 * frames for other tokens or without a positive price, flashes on every trade and settles the
 * price 500 ms after the last one of a burst. `onTrade` sees every matching trade at once (the
 * chart, the trades list).
 */
export function useLiveTrades(
  currency: string,
  issuer: string,
  onTrade: (trade: NewTrade) => void,
): LiveTrades {
  const [price, setPrice] = useState<string | null>(null);
  const [flash, setFlash] = useState<'buy' | 'sell' | null>(null);
  const onTradeRef = useRef(onTrade);
  onTradeRef.current = onTrade;

  useEffect(() => {
    if (!currency || !issuer) return;
    setPrice(null);
    let priceTimer: ReturnType<typeof setTimeout> | undefined;
    let flashTimer: ReturnType<typeof setTimeout> | undefined;
    const off = onSocketEvent('new_trade', (trade) => {
      if (!tradeMatchesToken(trade, currency, issuer)) return;
      onTradeRef.current(trade);
      clearTimeout(flashTimer);
      setFlash(trade.type === 'BUY' ? 'buy' : 'sell');
      flashTimer = setTimeout(() => setFlash(null), TRADE_FLASH_MS);
      clearTimeout(priceTimer);
      priceTimer = setTimeout(() => setPrice(trade.price), LIVE_PRICE_DEBOUNCE_MS);
    });
    const unsubscribe = subscribeToken(currency, issuer);
    return () => {
      unsubscribe();
      off();
      clearTimeout(priceTimer);
      clearTimeout(flashTimer);
    };
  }, [currency, issuer]);

  return { price, flash };
}
