import { Controller, Get } from '@nestjs/common';

/** Liveness for the container's HEALTHCHECK and orchestrators. */
@Controller('health')
export class HealthController {
  @Get()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
