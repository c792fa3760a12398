import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  DEFAULT_TOKEN_SORT,
  devUnlockedLabel,
  devUnlockedTitle,
  giveWayLast,
  ledgerLockLabel,
  ledgerLockTitle,
  lpBurnedLabel,
  lpBurnedTitle,
  nextTokenSort,
  pageLabel,
  paginate,
  searchTokenRows,
  shortAddress,
  sortTokenRows,
  tokenLinks,
  tokenPath,
  toTokenRow,
  type TokenRow,
  type TokenSort,
  type TokenSortKey,
  type TokenView,
} from '@ledgerpad/shared';
import { IdentityBadge, ListerLinksNote } from '../../components/identity-badge';
import { useIsMobile } from '../../lib/use-is-mobile';
import { useListedTokens } from './api';
import { useTokenStats } from './use-token-stats';
import './token-list.css';

const HOUR_MS = 3_600_000;
/** What a phone can sort its cards by (the table's sortable columns that the cards show). */
const CARD_SORTS: ReadonlyArray<{ key: TokenSortKey; label: string }> = [
  { key: 'created_at', label: 'Age' },
  { key: 'price', label: 'Price' },
  { key: 'marketCap', label: 'Market cap' },
  { key: 'change24h', label: '24h change' },
  { key: 'volume', label: '24h volume' },
  { key: 'liquidity', label: 'Liquidity' },
  { key: 'holders', label: 'Holders' },
  { key: 'ticker', label: 'Ticker' },
];

/** The header row (spec 000 §2); sortable columns name their key. */
const COLUMNS: ReadonlyArray<{ label: string; sort?: TokenSortKey; className?: string }> = [
  { label: 'Logo' },
  { label: 'Ticker', sort: 'ticker' },
  { label: 'Price', sort: 'price', className: 'num' },
  { label: 'LP', sort: 'pair' },
  { label: 'MC (USD)', sort: 'marketCap', className: 'num' },
  { label: '24h', sort: 'change24h', className: 'num' },
  { label: 'Vol 24h', sort: 'volume', className: 'num' },
  { label: 'Liquidity', sort: 'liquidity', className: 'num' },
  { label: 'Age', sort: 'created_at' },
  { label: 'Issuer', sort: 'issuer' },
  { label: 'Holders', sort: 'holders', className: 'num' },
  { label: 'Links' },
];

/** The age text changes by the hour: re-render the list when the hour turns, not every second. */
function useHourClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), HOUR_MS / 60);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function TokenList() {
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<TokenSort>(DEFAULT_TOKEN_SORT);
  const mobile = useIsMobile();
  const { data: tokens = [], isPending } = useListedTokens();
  const issuers = useMemo(() => [...new Set(tokens.map((t) => t.issuer_address))], [tokens]);
  const stats = useTokenStats(issuers);
  const now = useHourClock();

  const rows = useMemo(() => tokens.map((t) => toTokenRow(t, stats, now)), [tokens, stats, now]);
  // A search never puts a token that gives way (same ticker as one with more ledger history) first.
  const shown = useMemo(() => {
    const sorted = sortTokenRows(searchTokenRows(rows, search), sort);
    return paginate(search.trim() ? giveWayLast(sorted) : sorted, page);
  }, [rows, search, sort, page]);
  const pathOf = useTokenPaths(tokens);

  return (
    <section className="panel token-list" aria-labelledby="listed-tokens-title">
      <h2 id="listed-tokens-title">Listed Tokens</h2>
      <input
        className="search"
        type="search"
        aria-label="Search tokens"
        placeholder="Search tokens by name, ticker, or issuer..."
        value={search}
        onChange={(e) => {
          setSearch(e.target.value);
          // Search resets to page 1 (spec §4).
          setPage(1);
        }}
      />
      {mobile ? (
        <TokenCards
          rows={shown.rows}
          loading={isPending}
          sort={sort}
          onSort={setSort}
          onOpen={(row) => navigate(pathOf(row.token))}
          pathOf={pathOf}
        />
      ) : (
        <div className="table-scroll">
          <table className="tokens-table">
            <thead>
              <tr>
                {COLUMNS.map((c) => (
                  <th
                    key={c.label}
                    className={c.className}
                    aria-sort={
                      c.sort && sort.key === c.sort
                        ? sort.direction === 'asc'
                          ? 'ascending'
                          : 'descending'
                        : undefined
                    }
                  >
                    {c.sort ? (
                      <button
                        type="button"
                        className="sort-button"
                        onClick={() => setSort((s) => nextTokenSort(s, c.sort!))}
                      >
                        {c.label}
                        <span className="sort-mark" aria-hidden="true">
                          {sort.key === c.sort ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
                        </span>
                      </button>
                    ) : (
                      c.label
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.rows.length === 0 ? (
                <tr>
                  <td colSpan={COLUMNS.length} className="empty">
                    {isPending ? 'Loading…' : 'No tokens found.'}
                  </td>
                </tr>
              ) : (
                shown.rows.map((row) => (
                  <TokenListRow
                    key={`${row.token.issuer_address}|${row.token.currency}`}
                    row={row}
                    onOpen={() => navigate(pathOf(row.token))}
                    path={pathOf(row.token)}
                  />
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
      <div className="pagination">
        <button type="button" disabled={shown.page <= 1} onClick={() => setPage(shown.page - 1)}>
          Prev
        </button>
        <span aria-live="polite">{pageLabel(shown)}</span>
        <button type="button" disabled={shown.page >= shown.pages} onClick={() => setPage(shown.page + 1)}>
          Next
        </button>
      </div>
    </section>
  );
}

/**
 * One page per token (issue 35): `/token/{issuer}` for an issuer with one listed token (the spec's
 * path), `/token/{issuer}/{currency}` when it lists several.
 */
type PathOf = (t: Pick<TokenView, 'issuer_address' | 'currency'>) => string;

function useTokenPaths(tokens: readonly TokenView[]): PathOf {
  return useMemo(() => {
    const seen = new Set<string>();
    const several = new Set<string>();
    for (const t of tokens) (seen.has(t.issuer_address) ? several : seen).add(t.issuer_address);
    return (t) => tokenPath(t.issuer_address, several.has(t.issuer_address) ? t.currency : undefined);
  }, [tokens]);
}

function TokenListRow({ row, onOpen, path }: { row: TokenRow; onOpen: () => void; path: string }) {
  const t = row.token;
  const links = tokenLinks(t.links);
  return (
    <tr className="row-link" data-testid="token-row" onClick={onOpen}>
      <td>
        <TokenLogo token={t} />
      </td>
      <td>
        <TickerLink token={t} to={path} />
        <LockMark token={t} />
        <UnlockedMark token={t} />
        <LpBurnedMark token={t} />
      </td>
      <td className="num">
        {row.noMarket ? (
          <NoMarket />
        ) : (
          <>
            <span className={`figure ${row.priceFont}`} data-testid="price" title={row.priceFull}>
              {row.priceFormatted}
            </span>{' '}
            <span className="unit">{priceUnit(row)}</span>
          </>
        )}
      </td>
      <td>
        <span className={`pair pair-${row.pair.toLowerCase()}`}>{row.pair}</span>
      </td>
      <td className="num">
        {row.noMarket ? (
          <span className="muted">—</span>
        ) : (
          <span className={`figure ${row.marketCapFont}`} data-testid="market-cap" title={row.marketCapFull}>
            {row.marketCapFormatted}
          </span>
        )}
      </td>
      <td className="num">
        <Change24h row={row} />
      </td>
      <td className="num">
        <span className="figure" data-testid="volume-24h" title={row.volumeFull}>
          {row.volumeFormatted}
        </span>
      </td>
      <td className="num">
        <span className="figure" data-testid="liquidity" title={row.liquidityFull}>
          {row.liquidityFormatted}
        </span>
      </td>
      <td className="age" data-testid="age">
        {row.ageFormatted}
        {row.isNew && (
          <svg className="fire" role="img" aria-label="new" viewBox="0 0 16 16" width="14" height="14">
            <title>Launched less than a day ago</title>
            <path
              fill="#ff7a1a"
              d="M8 0c.6 2.6-.9 4-2.2 5.6C4.6 7 3.5 8.5 3.5 10.5 3.5 13.5 5.6 16 8 16s4.5-2.2 4.5-5.2c0-2.3-1.2-3.7-2-4.9-.3 1.3-.9 2.1-1.7 2.5C9.4 6 9.6 2.8 8 0z"
            />
            <path
              fill="#ffd23f"
              d="M8 9c-1 1-1.9 1.9-1.9 3.3A1.9 1.9 0 0 0 8 14.2a1.9 1.9 0 0 0 1.9-1.9C9.9 11 9 10.2 8 9z"
            />
          </svg>
        )}
      </td>
      <td className="issuer" title={t.issuer_address}>
        {shortAddress(t.issuer_address)}
        {row.isBlackholed && (
          <span
            className="blackholed"
            role="img"
            aria-label="blackholed"
            title="Blackholed issuer: no key can ever sign for it again, so the supply is fixed"
          />
        )}
      </td>
      <td className="num" data-testid="holders">
        {row.holdersCount ?? '—'}
      </td>
      <td className="links">
        {links.map((l) => (
          <a
            key={l.label}
            href={l.url}
            target="_blank"
            rel="noopener noreferrer nofollow"
            onClick={(e) => e.stopPropagation()}
          >
            {l.label}
          </a>
        ))}
        {links.length > 0 && t.metadata_by && <ListerLinksNote token={{ metadata_by: t.metadata_by }} />}
      </td>
    </tr>
  );
}

/** A listed token with neither a pool nor a curve: nothing to price it by (issue 39). */
function NoMarket() {
  return (
    <span
      className="muted no-market"
      data-testid="no-market"
      title="No pool or bonding curve to trade in yet"
    >
      no market
    </span>
  );
}

/** The 24h change, green up and red down; '—' without trades to compare with. */
function Change24h({ row }: { row: TokenRow }) {
  const change = row.change24h;
  return (
    <span
      className={`figure change ${change === null ? 'muted' : change.startsWith('-') ? 'down' : 'up'}`}
      data-testid="change-24h"
    >
      {change ?? '—'}
    </span>
  );
}

/**
 * The Price column's unit, always written beside it: the pair's quote asset by its name (issue 39:
 * the same RLUSD price read 'USD' here and 'RLUSD' on the token page). Spec 000 §3's USD price of an
 * RLUSD pair is that RLUSD price (RLUSD counts as a dollar).
 */
const priceUnit = (row: TokenRow) => row.pair;

/**
 * Phones (below 768 px): one card per token with what a trader scans for — ticker, price with its
 * unit, market cap and 24h change — and a sort menu in place of the header row. No sideways scroll.
 */
function TokenCards({
  rows,
  loading,
  sort,
  onSort,
  onOpen,
  pathOf,
}: {
  rows: TokenRow[];
  loading: boolean;
  sort: TokenSort;
  onSort: (sort: TokenSort) => void;
  onOpen: (row: TokenRow) => void;
  pathOf: PathOf;
}) {
  return (
    <>
      <div className="card-sort">
        <label className="field-label" htmlFor="token-card-sort">
          Sort by
        </label>
        <select
          id="token-card-sort"
          className="input"
          value={sort.key}
          onChange={(e) => onSort({ key: e.target.value as TokenSortKey, direction: 'desc' })}
        >
          {CARD_SORTS.map((o) => (
            <option key={o.key} value={o.key}>
              {o.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn-secondary card-sort-direction"
          aria-label={
            sort.direction === 'asc' ? 'Ascending, switch to descending' : 'Descending, switch to ascending'
          }
          onClick={() => onSort(nextTokenSort(sort, sort.key))}
        >
          {sort.direction === 'asc' ? '▲' : '▼'}
        </button>
      </div>
      {rows.length === 0 ? (
        <p className="empty">{loading ? 'Loading…' : 'No tokens found.'}</p>
      ) : (
        <ul className="token-cards" aria-label="Tokens">
          {rows.map((row) => (
            <TokenCard
              key={`${row.token.issuer_address}|${row.token.currency}`}
              row={row}
              onOpen={onOpen}
              path={pathOf(row.token)}
            />
          ))}
        </ul>
      )}
    </>
  );
}

function TokenCard({ row, onOpen, path }: { row: TokenRow; onOpen: (row: TokenRow) => void; path: string }) {
  const t = row.token;
  return (
    <li className="token-card" data-testid="token-row" onClick={() => onOpen(row)}>
      <TokenLogo token={t} />
      <div className="token-card-name">
        <TickerLink token={t} to={path} />
        <span className="muted small token-card-age">
          {row.ageFormatted} · {row.pair}
        </span>
        <LockMark token={t} />
        <UnlockedMark token={t} />
        <LpBurnedMark token={t} />
      </div>
      <dl className="token-card-figures">
        <div>
          <dt>Price</dt>
          {row.noMarket ? (
            <dd>
              <NoMarket />
            </dd>
          ) : (
            <dd className="figure" data-testid="price" title={row.priceFull}>
              {row.priceFormatted} <span className="unit">{priceUnit(row)}</span>
            </dd>
          )}
        </div>
        <div>
          <dt>MC</dt>
          <dd className="figure" data-testid="market-cap" title={row.marketCapFull}>
            {row.noMarket ? '—' : row.marketCapFormatted}
          </dd>
        </div>
        <div>
          <dt>24h</dt>
          <dd>
            <Change24h row={row} />
          </dd>
        </div>
        <div>
          <dt>Vol 24h</dt>
          <dd className="figure" data-testid="volume-24h" title={row.volumeFull}>
            {row.volumeFormatted}
          </dd>
        </div>
        <div>
          <dt>Liquidity</dt>
          <dd className="figure" data-testid="liquidity" title={row.liquidityFull}>
            {row.liquidityFormatted}
          </dd>
        </div>
      </dl>
    </li>
  );
}

function TokenLogo({ token: t }: { token: TokenRow['token'] }) {
  return t.logoUrl ? (
    <img className="token-logo" src={t.logoUrl} alt="" width={32} height={32} loading="lazy" />
  ) : (
    <span className="token-logo token-logo-empty" aria-hidden="true">
      {t.ticker.slice(0, 1)}
    </span>
  );
}

/** The ticker as a real link (keyboards, screen readers; the row click serves the mouse), with its identity mark. */
function TickerLink({ token: t, to }: { token: TokenRow['token']; to: string }) {
  return (
    <>
      <Link to={to} className="ticker" title={t.name} onClick={(e) => e.stopPropagation()}>
        {t.ticker}
      </Link>
      {t.verified !== undefined && (
        <IdentityBadge
          token={{
            verified: t.verified,
            verified_by: t.verified_by ?? null,
            verified_domain: t.verified_domain ?? null,
            lookalike_of: t.lookalike_of ?? null,
            same_as: t.same_as ?? null,
          }}
          compact
        />
      )}
    </>
  );
}

/**
 * The lock mark (issue 28): the share of the supply held in escrows on the ledger, by any holder,
 * with the until-date in the tooltip and, for screen readers, in the text itself.
 */
function LockMark({ token: t }: { token: Pick<TokenView, 'ledger_lock'> }) {
  const lock = t.ledger_lock;
  if (!lock) return null;
  return <PadlockMark kind="lock-mark" title={ledgerLockTitle(lock)} label={ledgerLockLabel(lock)} />;
}

const PADLOCK_ICONS = {
  'lock-mark':
    'M4 7V5a4 4 0 1 1 8 0v2h.5A1.5 1.5 0 0 1 14 8.5v6a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 14.5v-6A1.5 1.5 0 0 1 3.5 7H4zm2 0h4V5a2 2 0 1 0-4 0v2z',
  // A flame: burned.
  'lp-burned-mark':
    'M8 1c.5 2.5 3.5 4 3.5 7.5A3.5 3.5 0 0 1 8 12a3.5 3.5 0 0 1-3.5-3.5C4.5 7 5.5 6 6 5c.3 1.3 1 2 1.7 2.3C7.5 5.2 7.6 3 8 1zM3 13h10v2H3z',
  'unlocked-mark':
    'M12 5a2 2 0 1 0-4 0v2h4.5A1.5 1.5 0 0 1 14 8.5v6a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 14.5v-6A1.5 1.5 0 0 1 3.5 7H6V5a4 4 0 1 1 8 0v1h-2V5z',
};

/** A padlock mark (closed or open) and a short label; the whole title in the tooltip and for screen readers. */
function PadlockMark({
  kind,
  title,
  label,
}: {
  kind: keyof typeof PADLOCK_ICONS;
  title: string;
  label: string;
}) {
  return (
    <span
      className={
        kind === 'unlocked-mark'
          ? 'lock-mark unlocked-mark'
          : kind === 'lock-mark'
            ? 'lock-mark'
            : 'lock-mark lp-burned-mark'
      }
      title={title}
      data-testid={kind}
    >
      <svg aria-hidden="true" viewBox="0 0 16 16" width="11" height="11">
        <path fill="currentColor" d={PADLOCK_ICONS[kind]} />
      </svg>
      <span aria-hidden="true">{label}</span>
      <span className="visually-hidden">{title}</span>
    </span>
  );
}

/**
 * The 'unlocked' mark (issue 28): a Ledgerpad deploy's dev allocation that is not in escrow on the
 * ledger (never locked, or every tranche released); amber, the risk panel's warning colour.
 */
export function UnlockedMark({ token: t }: { token: Pick<TokenView, 'dev_unlocked'> }) {
  const u = t.dev_unlocked;
  if (!u) return null;
  return <PadlockMark kind="unlocked-mark" title={devUnlockedTitle(u)} label={devUnlockedLabel(u)} />;
}

/**
 * The 'LP burned' mark (issue 37): the share of the token's pool held by accounts that can never
 * sign, read from the ledger by the server; green, the risk panel's colour for it.
 */
export function LpBurnedMark({ token: t }: { token: Pick<TokenView, 'lp_burned'> }) {
  const b = t.lp_burned;
  if (!b) return null;
  return <PadlockMark kind="lp-burned-mark" title={lpBurnedTitle(b)} label={lpBurnedLabel(b)} />;
}
