import { displayTicker, isOwnImageUrl, tokenTabTitle, type TokenView } from '@ledgerpad/shared';
import { toTokenView, type TokenRegistry } from './service';

/**
 * What a token's page says before any script runs (its title and link-preview tags, written by the
 * web delivery): the listing's own name, description and logo; and the page's first reads, so its
 * first screen is in the HTML and its first query needs no round trip: `token`, the body of
 * `GET /api/tokens/issuer/{issuer}[?currency=]`, and on `/token/{issuer}` `issuerTokens`, the body of
 * `GET /api/tokens/issuer/{issuer}/tokens` (that one token). Null for no token, a token no longer
 * shown, or an issuer whose several tokens make `/token/{issuer}` a chooser, not one token's page.
 */
export async function tokenPageHead(
  tokens: Pick<TokenRegistry, 'allOfIssuer'>,
  issuer: string,
  currency: string | undefined,
): Promise<{
  title: string;
  description: string;
  image: string | null;
  token: TokenView;
  issuerTokens?: TokenView[];
} | null> {
  const rows = await tokens.allOfIssuer(issuer);
  const row =
    currency === undefined
      ? rows.length === 1
        ? rows[0]
        : undefined
      : rows.find((r) => r.currency === currency);
  if (!row || !row.isActive) return null;
  const view = toTokenView(row);
  const description =
    row.description.trim() ||
    `${displayTicker(row.ticker)} on the XRP Ledger: price, chart, holders and trading on Ledgerpad.`;
  return {
    title: tokenTabTitle(row.name, row.ticker),
    description,
    // Images only from us, as on the page itself (toTokenView's rule).
    image: isOwnImageUrl(row.logoUrl) ? row.logoUrl : null,
    token: view,
    ...(currency === undefined ? { issuerTokens: [view] } : {}),
  };
}
