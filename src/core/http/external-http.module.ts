import { Module } from '@nestjs/common';
import { ENV } from '../../config/env';
import { EXTERNAL_CONFIG, loadExternalConfig } from '../../config/external.config';
import { ExternalHttp } from './external-http';

/** Import into an action's module to call external HTTP APIs with the shared timeout. */
@Module({
  providers: [
    { provide: EXTERNAL_CONFIG, useFactory: loadExternalConfig, inject: [ENV] },
    ExternalHttp,
  ],
  exports: [ExternalHttp, EXTERNAL_CONFIG],
})
export class ExternalHttpModule {}
