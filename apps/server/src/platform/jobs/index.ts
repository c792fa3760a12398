// The platform's persisted job runner (docs/jobs.md): built once by the composition root, used by
// the modules that run long work (deploy, graduations, claims).
export {
  DEFAULT_FAILURE_MESSAGE,
  JobFailure,
  JobLeaseLost,
  toJobStatus,
  type HandlerOptions,
  type Job,
  type JobContext,
  type JobHandler,
  type JobLog,
  type JobStatus,
  type JobStatusView,
  type JobStep,
  type ParallelStep,
  type StepOptions,
  type StepStatus,
} from './job';
export { JobRunner, type EnqueueInput, type JobRunnerOptions } from './runner';
export { jobs } from './schema';
