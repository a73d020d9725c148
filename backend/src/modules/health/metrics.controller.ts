import { Controller, Get, Inject, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrorEnvelope } from '../../common/api-docs.js';
import { OperatorTokenGuard } from '../../common/operator-token.guard.js';
import { Metrics } from '../../infra/metrics/metrics.js';

/** Prometheus scrapes /metrics (outside /api) with the operator token. */
@ApiTags('health')
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(Metrics) private readonly metrics: Metrics) {}

  @Get()
  @UseGuards(OperatorTokenGuard)
  @ApiOkResponse({ description: 'Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiErrorEnvelope(401, 'Missing or wrong operator token')
  @ApiErrorEnvelope(404, 'No OPERATOR_TOKEN is configured')
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    const body = await this.metrics.render();
    await reply.header('content-type', this.metrics.contentType).header('cache-control', 'no-store').send(body);
  }
}
