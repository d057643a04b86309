import { Controller, Get, Inject, NotFoundException, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ActionRegistry } from './action.registry';
import type { DynamicAction, MiniAppMetadata } from './action.types';

/** What a mini-app platform fetches: every action, or one action at the URL a team registers. */
@Controller()
export class MetadataController {
  constructor(
    private readonly registry: ActionRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('api/metadata')
  all(@Req() req: FastifyRequest): MiniAppMetadata {
    return this.metadata(req, this.registry.actions());
  }

  /** `GET <action path>`: the metadata of a mini-app holding that one action. */
  @Get('*')
  one(@Req() req: FastifyRequest): MiniAppMetadata {
    const path = req.url.split('?', 1)[0];
    const action = this.registry.actions().find((candidate) => candidate.path === path);
    if (!action) throw new NotFoundException(`No action at ${path}`);
    return this.metadata(req, [action]);
  }

  private metadata(req: FastifyRequest, actions: DynamicAction[]): MiniAppMetadata {
    const { title, description, iconUrl } = this.config.metadata;
    return {
      title,
      description,
      ...(iconUrl !== undefined && { icon: iconUrl }),
      baseUrl: this.config.publicBaseUrl ?? `${req.protocol}://${req.host}`,
      actions,
    };
  }
}
