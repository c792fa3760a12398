// The landing page's first reads, embedded by the server in the HTML of `/` (apps/server/src/web/
// delivery.ts: an inert JSON data block with the bodies of /api/tokens, /api/prices and
// /api/holders), so the token list renders with the app's first render instead of after a round
// trip. They describe the market when the page was served: used only during the page's first
// seconds (a later visit to `/` within the app fetches as usual), and refreshed by the usual polls.

export const LANDING_DATA_ID = 'landing-data';
/** How long after the app's first read the embedded reads are still offered (the list's cadence). */
const LANDING_DATA_TTL_MS = 10_000;

type Part = 'tokens' | 'prices' | 'holders';

let parts: Partial<Record<Part, unknown>> | undefined;
/** When the block was read: the app's start on a fresh page load. */
let readAt = 0;

function load(): Partial<Record<Part, unknown>> {
  if (parts) return parts;
  parts = {};
  readAt = Date.now();
  const element = typeof document === 'undefined' ? null : document.getElementById(LANDING_DATA_ID);
  if (element) {
    try {
      const parsed: unknown = JSON.parse(element.textContent ?? '');
      if (parsed && typeof parsed === 'object') parts = parsed as Partial<Record<Part, unknown>>;
    } catch {
      // A damaged block only means the page fetches as it would without it.
    }
  }
  return parts;
}

/** The embedded body of one read; undefined when absent or when the page is no longer fresh. */
export function landingData(part: Part): unknown {
  const all = load();
  return Date.now() - readAt > LANDING_DATA_TTL_MS ? undefined : all[part];
}

/** For tests: forget what was read, so the next call reads the document again. */
export function resetLandingData(): void {
  parts = undefined;
}
