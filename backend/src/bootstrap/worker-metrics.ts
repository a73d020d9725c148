import type { Logger } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import { carriesOperatorToken } from '../common/operator-token.guard.js';
import type { AppConfig } from '../config/env.js';
import type { Metrics } from '../infra/metrics/metrics.js';

/**
 * The worker process's /metrics: jobs run there, so their durations are measured there (the web
 * process's /metrics has the queues' counts but not the worker's timings). Same format and token
 * as the web process's; without OPERATOR_TOKEN it answers 404, like the web's.
 */
export function serveWorkerMetrics(config: AppConfig, metrics: Metrics, port: number, logger: Logger): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    // A method /metrics does not take gets 405, as on the web process (common/method-not-allowed.ts).
    if (path === '/metrics' && request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { 'content-type': 'text/plain', allow: 'GET, HEAD' });
      response.end(`${request.method} is not allowed on /metrics; use GET, HEAD.\n`);
      return;
    }
    if (path !== '/metrics' || !config.operatorToken) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    if (!carriesOperatorToken(request.headers.authorization, config.operatorToken)) {
      response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer realm="operator"' });
      response.end('This endpoint needs the operator token: send Authorization: Bearer <OPERATOR_TOKEN>.\n');
      return;
    }
    metrics.render().then(
      (body) => response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(body),
      () => response.writeHead(503, { 'content-type': 'text/plain' }).end('Metrics are unavailable right now.\n'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, config.host, () => {
      logger.log(`worker metrics on http://${config.host}:${port}/metrics`);
      resolve(server);
    });
  });
}
