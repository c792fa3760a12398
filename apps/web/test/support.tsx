import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { fireEvent, waitFor } from '@testing-library/react';
import { expect, vi } from 'vitest';

// What the browser gives a page, stood in per test: fetch answers (with the server's payload
// shapes) and a router. The components and hooks under test are the real ones.

export type FetchAnswer = { status?: number; body: unknown } | undefined;

/** Replaces fetch: `answer` sees the path (no origin) and the parsed JSON body; undefined is a 404. */
export function stubFetch(answer: (path: string, body: unknown) => FetchAnswer) {
  const calls: string[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = `${url.pathname}${url.search}`;
    calls.push(path);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const a = answer(path, body) ?? { status: 404, body: { message: 'Not Found' } };
    return new Response(JSON.stringify(a.body), {
      status: a.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fn);
  return { calls, fn };
}

/** Shows the router's current path, so a test can see where a click navigated. */
function Location() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

export function withProviders(ui: ReactNode, path = '/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="*" element={ui} />
        </Routes>
        <Location />
      </MemoryRouter>
    </QueryClientProvider>
  );
}

// --- Viewport: jsdom has no layout and no matchMedia; useIsMobile reads this stand-in. ---
let mobileViewport = false;
const mqlListeners = new Set<() => void>();
const fakeMql = {
  get matches() {
    return mobileViewport;
  },
  media: '',
  addEventListener: (_: string, fn: () => void) => mqlListeners.add(fn),
  removeEventListener: (_: string, fn: () => void) => mqlListeners.delete(fn),
};
// Set once and never removed: useIsMobile keeps the first MediaQueryList it gets.
window.matchMedia = (() => fakeMql) as unknown as typeof window.matchMedia;

/** A phone (below 768 px) or a wide screen, as the mobile media query reports it. */
export function setMobileViewport(mobile: boolean): void {
  mobileViewport = mobile;
  mqlListeners.forEach((fn) => fn());
}

/**
 * Clicks a confirm button once it takes a click: confirmations (DeliberateButton, issue 39) stay
 * disabled for a moment after they appear, so a double click can't satisfy them; a user waits too.
 */
export async function clickWhenReady(button: HTMLElement | Promise<HTMLElement>): Promise<void> {
  const el = await button;
  await waitFor(() => expect((el as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(el);
}
