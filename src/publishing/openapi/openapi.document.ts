import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import { ENV, type Env } from '../../config/env';
import { describePrice, listPrice } from '../../payments/action-price';
import type { ActionDeclaration } from '../../contract/action.types';
import { ActionRegistry } from '../../kit/action.registry';
import { buildOpenApiDocument } from './openapi.builder';
import { OpenApiExtension } from './openapi-extension';

/**
 * The service's OpenAPI document, built once at boot from the registry's declarations, with the
 * paths of every layer above that serves and documents its own (each an OpenApiExtension provider,
 * found by discovery: the blinks, MCP). Built when the modules initialise, once every provider
 * exists; nothing reads it before (the controller per request, /docs through a factory).
 */
@Injectable()
export class OpenApiDocument implements OnModuleInit {
  private built?: { document: OpenAPIObject; json: string };

  constructor(
    private readonly registry: ActionRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ENV) private readonly env: Env,
    private readonly discovery: DiscoveryService,
  ) {}

  get document(): OpenAPIObject {
    return this.once().document;
  }

  /** Serialized once: every request answers the same bytes. */
  get json(): string {
    return this.once().json;
  }

  onModuleInit(): void {
    this.once();
  }

  private once(): { document: OpenAPIObject; json: string } {
    return (this.built ??= this.build());
  }

  private build(): { document: OpenAPIObject; json: string } {
    const { registry, config, env } = this;
    const actions = registry
      .actions()
      .map(({ path }) => registry.find(path))
      .filter((declaration): declaration is ActionDeclaration => declaration !== undefined);
    const document = buildOpenApiDocument({
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
    for (const extension of this.extensions()) {
      document.tags = [...(document.tags ?? []), extension.tag];
      Object.assign(document.paths, extension.paths());
      document.components = {
        ...document.components,
        schemas: { ...document.components?.schemas, ...extension.schemas() },
      };
    }
    return { document, json: JSON.stringify(document) };
  }

  /** Each extension once, in the order the modules registered them. */
  private extensions(): OpenApiExtension[] {
    const found = this.discovery
      .getProviders()
      .map((wrapper): unknown => wrapper.instance)
      .filter((instance): instance is OpenApiExtension => instance instanceof OpenApiExtension);
    return [...new Set(found)];
  }
}
