import { Inject, Injectable, Optional } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import { ENV, type Env } from '../../config/env';
import { describePrice, listPrice } from '../../payments/action-price';
import type { ActionDeclaration } from '../../contract/action.types';
import { ActionRegistry } from '../../kit/action.registry';
import { buildOpenApiDocument } from './openapi.builder';
import { OpenApiExtension } from './openapi-extension';

/** The service's OpenAPI document, built once at boot from the registry's declarations. */
@Injectable()
export class OpenApiDocument {
  readonly document: OpenAPIObject;
  /** Serialized once: every request answers the same bytes. */
  readonly json: string;

  constructor(
    registry: ActionRegistry,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(ENV) env: Env,
    @Optional() extension?: OpenApiExtension,
  ) {
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
      price: (declaration) => {
        const terms = listPrice(declaration, env);
        const sentence = describePrice(declaration, env);
        return terms && sentence ? { sentence, terms } : undefined;
      },
    });
    if (extension) {
      this.document.tags = [...(this.document.tags ?? []), extension.tag];
      Object.assign(this.document.paths, extension.paths());
      this.document.components = {
        ...this.document.components,
        schemas: { ...this.document.components?.schemas, ...extension.schemas() },
      };
    }
    this.json = JSON.stringify(this.document);
  }
}
