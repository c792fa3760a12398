import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * METRICS_PORT: Prometheus metrics on their own listener, bound to an internal address
 * (METRICS_HOST), without a token: only GET /metrics, nothing of the app.
 */
export function serveMetrics(app: FastifyInstance, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    app.metrics
      .render()
      .then(({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
      })
      .catch((err: unknown) => {
        app.log.error({ err }, 'metrics could not be collected');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics could not be collected\n');
      });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      app.log.info({ host, port }, 'metrics served on their own port');
      resolve(server);
    });
  });
}
