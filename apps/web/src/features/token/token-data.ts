import type { TokenView } from '@ledgerpad/shared';

// A token page's first read, embedded by the server in the page's HTML (apps/server/src/web/
// delivery.ts: an inert JSON data block with the body of GET /api/tokens/issuer/{issuer}[?currency=]
// and, on /token/{issuer}, of .../tokens), so the page renders with the app's first render instead
// of after a round trip (issue 40: the token page's LCP). It describes the token when the page was
// served: offered only for that page (its issuer and the URL's currency) during the page's first
// seconds; later visits within the app fetch as usual.

export const TOKEN_DATA_ID = 'token-data';
/** How long after the app read the block the embedded read is offered, and counts as fresh. */
export const TOKEN_DATA_FRESH_MS = 10_000;

interface Block {
  issuer: string;
  currency: string | null;
  token: TokenView;
  issuerTokens?: TokenView[];
}

let block: Block | null | undefined;
/** When the block was read: the app's start on a fresh page load. */
let readAt = 0;

function load(): Block | null {
  if (block !== undefined) return block;
  block = null;
  readAt = Date.now();
  const element = typeof document === 'undefined' ? null : document.getElementById(TOKEN_DATA_ID);
  if (element) {
    try {
      const parsed = JSON.parse(element.textContent ?? '') as Partial<Block> | null;
      if (parsed && typeof parsed.issuer === 'string' && parsed.token && typeof parsed.token === 'object')
        block = parsed as Block;
    } catch {
      // A damaged block only means the page fetches as it would without it.
    }
  }
  return block;
}

/**
 * The embedded reads of the page `/token/{issuer}[/{currency}]`, with when they were read; undefined
 * for another page, without a block, or once the page is no longer fresh.
 */
export function inlinedToken(
  issuer: string,
  currency: string | undefined,
): { token: TokenView; issuerTokens?: TokenView[]; at: number } | undefined {
  const b = load();
  if (!b || b.issuer !== issuer || b.currency !== (currency ?? null)) return undefined;
  if (Date.now() - readAt > TOKEN_DATA_FRESH_MS) return undefined;
  return { token: b.token, issuerTokens: b.issuerTokens, at: readAt };
}

/** For tests: forget what was read, so the next call reads the document again. */
export function resetTokenData(): void {
  block = undefined;
}
