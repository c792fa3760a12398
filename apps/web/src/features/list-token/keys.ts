// The listing pages' query keys (the claim of a listed token: its listing, who controls it, the
// one-time code of a claim).

export const listingKeys = {
  claim: (issuer: string) => ['listing', 'claim', issuer] as const,
  control: (tokenId: number) => ['listing', 'control', tokenId] as const,
  code: (tokenId: number) => ['listing', 'code', tokenId] as const,
};
