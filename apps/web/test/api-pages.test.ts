import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiGetAll, apiGetAllPages } from '../src/lib/api';

// The server pages its lists (`?limit=&offset=`, `Link: rel="next"`, docs/paging.md); the screens
// that must show every row follow the links.
const page = (body: unknown, next?: string) =>
  new Response(JSON.stringify(body), {
    headers: { 'content-type': 'application/json', ...(next ? { link: `<${next}>; rel="next"` } : {}) },
  });

afterEach(() => vi.unstubAllGlobals());

describe('paged lists', () => {
  it('follows rel="next" until the last page, plain arrays and wrapped lists alike', async () => {
    const seen: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        seen.push(url);
        if (url === '/api/admin/tokens')
          return Promise.resolve(page([1, 2], '/api/admin/tokens?limit=2&offset=2'));
        if (url.endsWith('offset=2'))
          return Promise.resolve(page([3, 4], '/api/admin/tokens?limit=2&offset=4'));
        if (url.endsWith('offset=4')) return Promise.resolve(page([5]));
        if (url === '/api/dashboard/trust-lines/7')
          return Promise.resolve(
            page({ currency: 'ABC', trustLines: ['a'] }, '/api/dashboard/trust-lines/7?offset=1'),
          );
        return Promise.resolve(page({ currency: 'ABC', trustLines: ['b'] }));
      }),
    );
    expect(await apiGetAll<number>('/api/admin/tokens')).toEqual([1, 2, 3, 4, 5]);
    expect(seen).toEqual([
      '/api/admin/tokens',
      '/api/admin/tokens?limit=2&offset=2',
      '/api/admin/tokens?limit=2&offset=4',
    ]);
    const lines = await apiGetAllPages<{ currency: string; trustLines: string[] }, string>(
      '/api/dashboard/trust-lines/7',
      (p) => p.trustLines,
      (first, trustLines) => ({ ...first, trustLines }),
    );
    expect(lines).toEqual({ currency: 'ABC', trustLines: ['a', 'b'] });
  });
});
