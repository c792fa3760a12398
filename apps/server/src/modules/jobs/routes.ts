import type { FastifyInstance } from 'fastify';
import { jobStatusViewSchema, type JobStatusView } from '@ledgerpad/shared';
import { badRequest, notFound } from '../../lib/errors';
import { toJobStatus, type JobRunner } from '../../platform/jobs';
import { declared } from '../../plugins/access';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NOT_FOUND = 'Job not found.';

/** GET /api/job-status/{jobId}: the owner's jobs only; another user's job is as unknown as none. */
export function registerJobs(app: FastifyInstance, deps: { jobs: JobRunner }): void {
  app.get<{ Params: { jobId: string } }>(
    '/api/job-status/:jobId',
    declared('user', {
      summary: 'One of your background jobs (a deploy): its status, steps and, once completed, its result.',
      response: jobStatusViewSchema,
    }),
    async (request, reply): Promise<JobStatusView> => {
      const { jobId } = request.params;
      if (!UUID.test(jobId)) throw badRequest('jobId must be a job id.');
      const job = await deps.jobs.get(jobId);
      if (!job || job.userId !== request.user!.id) throw notFound(NOT_FOUND);
      reply.header('cache-control', 'private, no-store');
      return toJobStatus(job);
    },
  );
}
