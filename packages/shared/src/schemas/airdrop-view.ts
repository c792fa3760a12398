import { z } from 'zod';

// An airdrop as GET /api/airdrops answers it: its own file, with nothing but zod, so the public API's
// schemas (schemas/public-api.ts) can document it without importing the airdrop rules and what they
// import (listing → tokens → public-api would be a cycle).

/** An amount as the public answer documents it (docs/money.md: never a float). */
const decimal = z.string().describe('A decimal number as a string.');

const AIRDROP_STATUSES = ['active', 'expired', 'closed'] as const;
export type AirdropStatus = (typeof AIRDROP_STATUSES)[number];

/** One row of GET /api/airdrops (the spec's Airdrop entity, plus its status); `has_claimed` is the signed-in caller's, false for a visitor. */
export const airdropSchema = z.object({
  id: z.number().int(),
  project_name: z.string(),
  tagline: z.string(),
  logo_url: z.string(),
  description: z.string(),
  issuer_address: z.string().describe('A classic XRPL address (r...).'),
  token_code: z.string(),
  fixed_amount: decimal.nullable(),
  min_amount: decimal.nullable(),
  max_amount: decimal.nullable(),
  max_claims: z.number().int(),
  claimed_count: z.number().int(),
  total_token_amount: decimal,
  expiry: z.string(),
  has_claimed: z.boolean(),
  /** The signed-in user created it (issue 39, additive): creators cannot claim, so no Claim is offered. */
  is_creator: z.boolean().optional(),
  website_url: z.string().nullable(),
  twitter_url: z.string().nullable(),
  status: z.enum(AIRDROP_STATUSES),
});
export type Airdrop = z.infer<typeof airdropSchema>;
