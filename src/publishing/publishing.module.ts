import { Global, Module } from '@nestjs/common';
import { MetadataController } from './metadata.controller';
import { MiniAppDocuments } from './mini-app-documents';
import { MiniAppIconsController } from './mini-app-icons.controller';
import { OpenApiController } from './openapi/openapi.controller';
import { OpenApiDocument } from './openapi/openapi.document';

/** What the platform and people read: the mini-apps' documents and icons, and OpenAPI. */
@Global()
@Module({
  controllers: [MetadataController, MiniAppIconsController, OpenApiController],
  providers: [MiniAppDocuments, OpenApiDocument],
  exports: [MiniAppDocuments, OpenApiDocument],
})
export class PublishingModule {}
