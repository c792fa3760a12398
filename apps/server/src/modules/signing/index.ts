export { registerSigning } from './routes';
