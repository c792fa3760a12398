// The public configuration routes (fees, settings the web reads).
export { registerConfig } from './routes';
