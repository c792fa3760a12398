// What the rest of the server uses of the auth module: owner sign-in links and socket tokens.
export { issueOwnerLink, ownerHasSignedIn, ownerLinkUrl, OWNER_LINK_PATH } from './sign-in-links';
export { signSocketToken, verifySocketToken, type SocketClaims } from './socket-token';
export { registerAuth } from './routes';
