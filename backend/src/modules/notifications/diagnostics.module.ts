import { Module } from '@nestjs/common';
import { LiveDiagnosticsController } from './diagnostics.controller.js';
import { NotificationsModule } from './notifications.module.js';

/**
 * GET /api/test/realtime and /api/test/polling, for the developer pages. The application imports
 * this module only when DIAGNOSTIC_ROUTES is on (app.module.ts): otherwise the routes do not exist
 * and answer 404 like any unknown path, to visitors and signed-in users alike.
 */
@Module({
  imports: [NotificationsModule],
  controllers: [LiveDiagnosticsController],
})
export class LiveDiagnosticsModule {}
