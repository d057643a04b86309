import { Controller, Get, Header } from '@nestjs/common';
import { OpenApiDocument } from './openapi.document';

/**
 * `GET /api/openapi.json`: the API document, always served (the /docs page only under DEBUG_UI).
 * Not an action, so never rate-limited.
 */
@Controller('api')
export class OpenApiController {
  constructor(private readonly openApi: OpenApiDocument) {}

  @Get('openapi.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  document(): string {
    return this.openApi.json;
  }
}
