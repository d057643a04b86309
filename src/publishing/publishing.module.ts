import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MetadataController } from './metadata.controller';
import { MiniAppDocuments } from './mini-app-documents';
import { MiniAppIconsController } from './mini-app-icons.controller';
import { setupApiReference } from './openapi/api-reference';
import { OpenApiController } from './openapi/openapi.controller';
import { OpenApiDocument } from './openapi/openapi.document';

/** What the platform and people read: the mini-apps' documents and icons, and OpenAPI. */
@Global()
@Module({
  imports: [DiscoveryModule],
  controllers: [MetadataController, MiniAppIconsController, OpenApiController],
  providers: [MiniAppDocuments, OpenApiDocument],
  exports: [MiniAppDocuments, OpenApiDocument],
})
export class PublishingModule {
  /** `/docs` under DEBUG_UI, set up as SwaggerModule.setup is (the document is always served). */
  static setup(app: NestFastifyApplication): void {
    setupApiReference(app);
  }
}
