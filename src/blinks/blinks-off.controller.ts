import { Controller, Get } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { ActionsJson } from '@solana/actions-spec';

/**
 * With BLINKS=off, the one blink route left: `actions.json` maps nothing (`{"rules": []}`), and
 * `/api/blinks/**` is not registered (404). Empty rather than absent because Dialect's client
 * (blinks-core 0.20.7, unfurlUrlToBlinkApiUrl) reads the answer's `rules` whatever its status:
 * an empty list unfurls to "no blink", while a 404's body, which has none, throws in its mapper.
 */
@Controller()
export class BlinksOffController {
  @Get('actions.json')
  // Any origin may read that there is nothing, as any could read the rules when blinks are on.
  @RouteConfig({ cors: { origin: '*' } })
  actionsJson(): ActionsJson {
    return { rules: [] };
  }
}
