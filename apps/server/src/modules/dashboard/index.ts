// What the rest of the server may use of the dashboard module: the issuer-side view of a line.
export { registerDashboard } from './routes';
