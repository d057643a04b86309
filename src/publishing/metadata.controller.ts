import {
  Controller,
  Get,
  Header,
  HttpStatus,
  Inject,
  Logger,
  NotFoundException,
  type OnModuleInit,
  Param,
  Req,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ActionException } from '../contract/action.exception';
import type { MiniAppMetadata } from '../contract/action.types';
import { MiniAppDocuments } from './mini-app-documents';
import type { MiniAppIndex } from '../contract/mini-app.types';

/**
 * What a mini-app platform fetches: the index of the service, a mini-app's document at the URL a
 * team registers, or one action's document at its path.
 */
@Controller()
export class MetadataController implements OnModuleInit {
  constructor(
    private readonly documents: MiniAppDocuments,
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
  index(@Req() req: FastifyRequest): MiniAppIndex {
    return this.documents.index(this.baseUrl(req));
  }

  /** `GET /api/mini-apps/<id>`: the document a platform registers for that mini-app. */
  @Get('api/mini-apps/:id')
  @Header('Cache-Control', 'no-store')
  miniApp(@Param('id') id: string, @Req() req: FastifyRequest): MiniAppMetadata {
    const document = this.documents.miniApp(id, this.baseUrl(req));
    if (!document) throw new NotFoundException('No such mini-app');
    return document;
  }

  /** `GET <action path>`: the document of a mini-app holding that one action. */
  @Get('*')
  @Header('Cache-Control', 'no-store')
  one(@Req() req: FastifyRequest): MiniAppMetadata {
    const path = req.url.split('?', 1)[0];
    const document = this.documents.action(path, this.baseUrl(req));
    if (!document) throw new NotFoundException(`No action at ${path}`);
    return document;
  }

  /** PUBLIC_BASE_URL, or the request's: the host check (src/server/edge) has refused any other. */
  private baseUrl(req: FastifyRequest): string {
    if (this.config.publicBaseUrl !== undefined) return this.config.publicBaseUrl;
    if (!req.host) {
      throw new ActionException(HttpStatus.BAD_REQUEST, 'The Host header is required', {
        message: 'The request names no host to publish',
        code: 'INVALID_HOST',
      });
    }
    return `${req.protocol.toLowerCase()}://${req.host}`;
  }
}
