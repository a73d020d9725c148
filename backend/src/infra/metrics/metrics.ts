import { Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, type Metric, Registry } from 'prom-client';
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

  private readonly httpDurations = new HttpDurations();

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
    this.registry.registerMetric(this.httpDurations as unknown as Metric);
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
      this.httpDurations.observe(request.method, request.routeOptions.url ?? '(unmatched)', reply.statusCode, reply.elapsedTime / 1000);
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

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface DurationSeries {
  labels: { method: string; route: string; status_code: string };
  /** Answers per bucket (not cumulative), in HTTP_BUCKETS' order. */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * The HTTP latency histogram (fieldmarket_http_request_duration_seconds, by method, route pattern and
 * status code), served by prom-client's registry as its own Histogram would be. Counted here because
 * prom-client's observe() validates and hashes the labels of every request, a few percent of the
 * cost of a small API answer.
 */
class HttpDurations {
  readonly name = 'fieldmarket_http_request_duration_seconds';
  readonly help = 'Time to answer HTTP requests, by method, route pattern and status code';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /** By route pattern, status and method: three lookups of values the request already holds, no key to build. */
  private readonly series = new Map<string, Map<number, Map<string, DurationSeries>>>();

  observe(method: string, route: string, status: number, seconds: number): void {
    let byStatus = this.series.get(route);
    if (byStatus === undefined) this.series.set(route, (byStatus = new Map()));
    let byMethod = byStatus.get(status);
    if (byMethod === undefined) byStatus.set(status, (byMethod = new Map()));
    let series = byMethod.get(method);
    if (series === undefined) {
      series = { labels: { method, route, status_code: String(status) }, counts: HTTP_BUCKETS.map(() => 0), sum: 0, count: 0 };
      byMethod.set(method, series);
    }
    for (let i = 0; i < HTTP_BUCKETS.length; i++) {
      if (seconds <= (HTTP_BUCKETS[i] as number)) {
        (series.counts[i] as number)++;
        break;
      }
    }
    series.sum += seconds;
    series.count++;
  }

  /** prom-client's MetricObjectWithValues: cumulative buckets, +Inf, sum and count per series. */
  get() {
    const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
    const all = [...this.series.values()].flatMap((byStatus) => [...byStatus.values()].flatMap((byMethod) => [...byMethod.values()]));
    for (const { labels, counts, sum, count } of all) {
      let cumulative = 0;
      HTTP_BUCKETS.forEach((le, i) => {
        cumulative += counts[i] ?? 0;
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.series.clear();
  }
}
