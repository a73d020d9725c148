import { Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { JobQueue } from '../queue/job-queue.service.js';
import { Realtime } from '../realtime/realtime.js';

const JOB_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

/**
 * The Prometheus metrics of this process (prom-client, its own registry): HTTP latency per route
 * pattern, jobs per queue and state, job durations, sockets, and Node's process metrics. Served
 * at /metrics behind the operator token.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  private readonly httpDuration = new Histogram({
    name: 'fieldmarket_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  private readonly jobDuration = new Histogram({
    name: 'fieldmarket_job_duration_seconds',
    help: 'Time jobs run in this process, by queue, job name and outcome',
    labelNames: ['queue', 'name', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });

  private readonly jobsProcessed = new Counter({
    name: 'fieldmarket_jobs_processed_total',
    help: 'Jobs run in this process, by queue and outcome',
    labelNames: ['queue', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor(@Inject(JobQueue) jobs: JobQueue, @Inject(Realtime) realtime: Realtime) {
    collectDefaultMetrics({ register: this.registry, prefix: 'fieldmarket_' });
    new Gauge({
      name: 'fieldmarket_queue_jobs',
      help: 'Jobs in each queue by state (waiting is the queue depth), across every process',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const counts of await jobs.counts().catch(() => [])) {
          for (const state of JOB_STATES) this.set({ queue: counts.queue, state }, counts[state]);
        }
      },
    });
    new Gauge({
      name: 'fieldmarket_socket_connections',
      help: 'socket.io connections held by this process',
      registers: [this.registry],
      collect() {
        this.set(realtime.socketCount());
      },
    });
  }

  /** Times every request on Fastify, labelled with its route pattern (never the raw URL, which has ids). */
  observeHttp(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? '(unmatched)';
      this.httpDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
      done();
    });
  }

  observeJob(queue: string, name: string, outcome: 'completed' | 'failed', seconds: number): void {
    this.jobDuration.observe({ queue, name, outcome }, seconds);
    this.jobsProcessed.inc({ queue, outcome });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
