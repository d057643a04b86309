import { Inject, Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import type { ActionDeclaration } from '../../contract/action.types';
import { ActionRegistry } from '../../kit/action.registry';
import { buildOpenApiDocument } from './openapi.builder';

/** The service's OpenAPI document, built once at boot from the registry's declarations. */
@Injectable()
export class OpenApiDocument {
  readonly document: OpenAPIObject;
  /** Serialized once: every request answers the same bytes. */
  readonly json: string;

  constructor(registry: ActionRegistry, @Inject(APP_CONFIG) config: AppConfig) {
    const actions = registry
      .actions()
      .map(({ path }) => registry.find(path))
      .filter((declaration): declaration is ActionDeclaration => declaration !== undefined);
    this.document = buildOpenApiDocument({
      title: config.metadata.title,
      description: config.metadata.description,
      serverUrl: config.publicBaseUrl,
      actions,
      miniApps: registry.miniApps().map((group) => group.miniApp),
    });
    this.json = JSON.stringify(this.document);
  }
}
