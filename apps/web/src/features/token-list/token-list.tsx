import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { TOKEN_FETCH_LIMIT, TOKENS_PER_PAGE } from '@ledgerpad/shared';
import { apiGet } from '../../lib/api';

interface ListedToken {
  id: number;
  name: string;
  ticker: string;
  issuer_address: string;
  created_at: string;
}

const COLUMNS = ['Logo', 'Ticker', 'Price', 'LP', 'MC (USD)', 'Age', 'Issuer', 'Holders', 'Links'] as const;

export function TokenList() {
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  // Public call (no credentials); a failed fetch falls back to an empty list silently (spec §8).
  const { data: tokens = [] } = useQuery({
    queryKey: ['tokens'],
    queryFn: async ({ signal }) => {
      try {
        return await apiGet<ListedToken[]>(`/api/tokens?limit=${TOKEN_FETCH_LIMIT}`, {
          signal,
          credentials: false,
        });
      } catch {
        return [];
      }
    },
  });

  const filtered = useMemo(() => {
    const q = search.trim().toLowerCase();
    if (!q) return tokens;
    return tokens.filter((t) =>
      [t.name, t.ticker, t.issuer_address].some((f) => f.toLowerCase().includes(q)),
    );
  }, [tokens, search]);
  const pages = Math.max(1, Math.ceil(filtered.length / TOKENS_PER_PAGE));
  const current = Math.min(page, pages);
  const rows = filtered.slice((current - 1) * TOKENS_PER_PAGE, current * TOKENS_PER_PAGE);

  return (
    <section className="panel token-list" aria-labelledby="listed-tokens-title">
      <h2 id="listed-tokens-title">Listed Tokens</h2>
      <input
        className="search"
        type="search"
        placeholder="Search tokens by name, ticker, or issuer..."
        value={search}
        onChange={(e) => {
          setSearch(e.target.value);
          setPage(1);
        }}
      />
      {/* Narrow screens scroll the table, never the page. */}
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th key={c}>{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={COLUMNS.length} className="empty">
                  No tokens found.
                </td>
              </tr>
            ) : (
              rows.map((t) => (
                <tr
                  key={t.issuer_address}
                  className="row-link"
                  onClick={() => navigate(`/token/${t.issuer_address}`)}
                >
                  <td />
                  <td>{t.ticker}</td>
                  <td colSpan={7}>{t.issuer_address}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <div className="pagination">
        <button type="button" disabled={current <= 1} onClick={() => setPage(current - 1)}>
          Prev
        </button>
        <span>
          Page {current} / {pages}
        </span>
        <button type="button" disabled={current >= pages} onClick={() => setPage(current + 1)}>
          Next
        </button>
      </div>
    </section>
  );
}
