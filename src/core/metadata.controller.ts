import {
  Controller,
  Get,
  Header,
  HttpStatus,
  Inject,
  Logger,
  NotFoundException,
  type OnModuleInit,
  Req,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ActionException } from './action.exception';
import { ActionRegistry } from './action.registry';
import type { DynamicAction, MiniAppMetadata } from './action.types';

/** What a mini-app platform fetches: every action, or one action at the URL a team registers. */
@Controller()
export class MetadataController implements OnModuleInit {
  constructor(
    private readonly registry: ActionRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const { nodeEnv, publicBaseUrl, allowedHosts } = this.config;
    if (nodeEnv === 'production' && publicBaseUrl === undefined && allowedHosts.length === 0) {
      new Logger('MetadataController').warn(
        'Neither PUBLIC_BASE_URL nor ALLOWED_HOSTS is set: the published baseUrl is any host a request names',
      );
    }
  }

  // The baseUrl may come from the request: a shared cache must not hand one client's to another.
  @Get('api/metadata')
  @Header('Cache-Control', 'no-store')
  all(@Req() req: FastifyRequest): MiniAppMetadata {
    return this.metadata(req, this.registry.actions());
  }

  /** `GET <action path>`: the metadata of a mini-app holding that one action. */
  @Get('*')
  @Header('Cache-Control', 'no-store')
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
      baseUrl: this.config.publicBaseUrl ?? this.requestBaseUrl(req),
      actions,
    };
  }

  /** The host check (src/core/edge) has already refused any host or protocol but a plain one. */
  private requestBaseUrl(req: FastifyRequest): string {
    if (!req.host) {
      throw new ActionException(HttpStatus.BAD_REQUEST, 'The Host header is required', {
        message: 'The request names no host to publish',
        code: 'INVALID_HOST',
      });
    }
    return `${req.protocol.toLowerCase()}://${req.host}`;
  }
}
