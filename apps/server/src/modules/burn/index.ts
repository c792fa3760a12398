// Token burner: a holder's tokens paid back to their issuer, out of circulation.
export { registerBurn } from './routes';
