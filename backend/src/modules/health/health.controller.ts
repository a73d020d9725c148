import { Controller, Get, Header, HttpCode, Inject, Options, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { OperatorTokenGuard } from '../../common/operator-token.guard.js';
import { HealthDetailsResponse, HealthResponse, LivenessResponse, ReadinessResponse } from './dto/health.response.js';
import { HealthService } from './health.service.js';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(@Inject(HealthService) private readonly health: HealthService) {}

  @Get()
  @Header('cache-control', 'no-store')
  @ApiEnvelope(200, HealthResponse, { description: 'Database, queue, storage and mail are up' })
  @ApiErrorEnvelope(503, 'At least one dependency is down; `error` names it, `details` has the checks')
  check(): Promise<HealthResponse> {
    return this.health.check();
  }

  /** Liveness probe: the process answers. */
  @Get('live')
  @Header('cache-control', 'no-store')
  @ApiEnvelope(200, LivenessResponse)
  live(): LivenessResponse {
    return this.health.live();
  }

  /** Readiness probe: the database answers and no migration is pending. */
  @Get('ready')
  @Header('cache-control', 'no-store')
  @ApiEnvelope(200, ReadinessResponse)
  @ApiErrorEnvelope(503, 'The database is unreachable or a migration is pending; `error` says which')
  ready(): Promise<ReadinessResponse> {
    return this.health.ready();
  }

  /** For operators (OPERATOR_TOKEN): what each check looked at, raw errors, job counts. */
  @Get('details')
  @UseGuards(OperatorTokenGuard)
  @Header('cache-control', 'no-store')
  @ApiEnvelope(200, HealthDetailsResponse, { description: 'Every check in detail, whether or not a dependency is down' })
  @ApiErrorEnvelope(401, 'Missing or wrong operator token')
  @ApiErrorEnvelope(404, 'No OPERATOR_TOKEN is configured')
  details(): Promise<HealthDetailsResponse> {
    return this.health.details();
  }

  /** The client's CORS/connectivity probe (SPEC §7 "OPTIONS /health"). */
  @Options()
  @HttpCode(204)
  @Header('allow', 'GET, HEAD, OPTIONS')
  @Header('cache-control', 'no-store')
  preflight(): void {}
}
