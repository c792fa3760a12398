// What the rest of the server uses of the auth module: owner sign-in links and socket tokens.
export { issueOwnerLink, ownerHasSignedIn, ownerLinkUrl } from './sign-in-links';
export { verifySocketToken, type SocketClaims } from './socket-token';
export { registerAuth } from './routes';
