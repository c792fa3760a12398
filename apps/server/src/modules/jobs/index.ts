// The job-status route users poll for their background work.
export { registerJobs } from './routes';
