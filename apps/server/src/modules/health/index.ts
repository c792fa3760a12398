// Liveness and readiness for load balancers and monitors.
export { registerHealth } from './routes';
