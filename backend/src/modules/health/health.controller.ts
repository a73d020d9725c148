import { Controller, Get, Header, HttpCode, Inject, Options } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { HealthResponse } from './dto/health.response.js';
import { HealthService } from './health.service.js';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(@Inject(HealthService) private readonly health: HealthService) {}

  @Get()
  @Header('cache-control', 'no-store')
  @ApiEnvelope(200, HealthResponse, { description: 'Database, queue, storage and mail are up' })
  @ApiErrorEnvelope(503, 'At least one dependency is down; `error` names it')
  check(): Promise<HealthResponse> {
    return this.health.check();
  }

  /** The client's CORS/connectivity probe (SPEC §7 "OPTIONS /health"). */
  @Options()
  @HttpCode(204)
  @Header('allow', 'GET, HEAD, OPTIONS')
  @Header('cache-control', 'no-store')
  preflight(): void {}
}
