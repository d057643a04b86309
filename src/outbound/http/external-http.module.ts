import { Module } from '@nestjs/common';
import { ENV } from '../../config/env';
import { EXTERNAL_CONFIG, loadExternalConfig } from '../../config/external.config';
import { ExternalHttp } from './external-http';
import { UpstreamBounds } from './upstream-bounds';

/**
 * Import into an action's module to call external HTTP APIs with the shared timeout and per-host
 * bounds. One instance serves the whole application, so every module (the RPC clients too)
 * shares one set of bounds per host.
 */
@Module({
  providers: [
    { provide: EXTERNAL_CONFIG, useFactory: loadExternalConfig, inject: [ENV] },
    UpstreamBounds,
    ExternalHttp,
  ],
  exports: [ExternalHttp, EXTERNAL_CONFIG, UpstreamBounds],
})
export class ExternalHttpModule {}
