// The Google account the stand-in Google knows: global-setup.ts starts the stand-in and configures
// the server with this client id; specs route the browser's Google calls to stand-ins too.

/** The account: its token, Google id and email. */
export const E2E_GOOGLE = {
  clientId: '424242-ledgerpad-e2e.apps.googleusercontent.com',
  token: 'ya29.e2e-grace',
  sub: '110169484474386270042',
  email: 'grace.e2e@example.com',
} as const;
