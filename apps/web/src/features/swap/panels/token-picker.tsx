import { useEffect, useState } from 'react';
import { SEARCH_DEBOUNCE_MS, formatToken, type WalletToken } from '@ledgerpad/shared';
import { IdentityBadge } from '../../../components/identity-badge';
import { useTokenSearch } from '../api';
import type { TokenChoice } from '../form';
import { useDebounced } from '../hooks';

const ADDRESS_LIKE = /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/;

/** Issuer or name/ticker search; suggestions hide once the text looks like an issuer address. */
export function TokenPicker({
  value,
  onChange,
}: {
  value: TokenChoice | null;
  onChange: (t: TokenChoice) => void;
}) {
  const [text, setText] = useState(value ? value.ticker : '');
  const [open, setOpen] = useState(false);
  const query = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const addressLike = ADDRESS_LIKE.test(query);
  const search = useTokenSearch(open && !addressLike ? query : '');
  const suggestions = search.data ?? [];
  const byAddress = useTokenSearch(addressLike ? query : '');

  // The token chosen elsewhere (the Sell tab, navigation) shows here too.
  useEffect(() => {
    if (value && !open) setText(value.ticker);
  }, [value, open]);

  // A typed issuer address picks its listed token as soon as the search knows it.
  useEffect(() => {
    const hit = byAddress.data?.find((s) => s.issuer_address === query);
    if (hit && value?.issuer !== hit.issuer_address) {
      onChange({ issuer: hit.issuer_address, code: hit.ticker, ticker: hit.ticker });
    }
  }, [byAddress.data, query, value, onChange]);

  return (
    <div className="field token-picker">
      <label className="field-label" htmlFor="swap-token">
        Token
      </label>
      <input
        id="swap-token"
        className="input"
        autoComplete="off"
        placeholder="Search by name, ticker or issuer address"
        value={text}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        role="combobox"
        aria-expanded={open && suggestions.length > 0}
        aria-controls="swap-token-list"
      />
      {open && !addressLike && suggestions.length > 0 && (
        <ul className="suggestions" id="swap-token-list" role="listbox">
          {suggestions.map((s) => (
            <li
              key={`${s.issuer_address}|${s.ticker}`}
              role="option"
              aria-selected={value?.issuer === s.issuer_address}
            >
              <button
                type="button"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => {
                  onChange({ issuer: s.issuer_address, code: s.ticker, ticker: s.ticker });
                  setText(s.ticker);
                  setOpen(false);
                }}
              >
                <strong>{s.ticker}</strong> <IdentityBadge token={s} plain />{' '}
                <span className="muted">{s.name}</span>
                <span className="muted small suggestion-issuer">{s.issuer_address}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The Sell tab: the tokens this wallet holds (LP tokens and RLUSD left out, spec 001 §2). */
export function HeldTokens({
  tokens,
  value,
  onChange,
}: {
  tokens: WalletToken[];
  value: TokenChoice | null;
  onChange: (t: TokenChoice) => void;
}) {
  if (tokens.length === 0)
    return (
      <p className="muted" data-testid="empty-wallet">
        Nothing to sell here — this wallet is emptier than a rug-pulled pool.
      </p>
    );
  return (
    <div className="held-tokens" role="group" aria-label="Tokens in this wallet">
      {tokens.map((t) => (
        <button
          type="button"
          key={`${t.issuer}|${t.currencyCode}`}
          aria-pressed={value?.issuer === t.issuer && value.code === t.currencyCode}
          onClick={() => onChange({ issuer: t.issuer, code: t.currencyCode, ticker: t.currency })}
        >
          {t.currency}{' '}
          <span className="muted figure" title={t.value}>
            {formatToken(t.value)}
          </span>
        </button>
      ))}
    </div>
  );
}
