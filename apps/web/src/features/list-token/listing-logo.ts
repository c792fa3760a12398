// The listing's logo upload, the same on /list-token and on a claim: its purpose (the server's
// limits for listing logos) and the hint that states them.
export const LISTING_LOGO = {
  purpose: 'listing',
  hint: 'Optional. JPEG, PNG or WebP, under 5 MB, square or near-square.',
} as const;
