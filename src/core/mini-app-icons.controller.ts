import {
  type CallHandler,
  Controller,
  type ExecutionContext,
  Get,
  Injectable,
  type NestInterceptor,
  NotFoundException,
  Param,
  StreamableFile,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type Observable, tap } from 'rxjs';
import { MiniAppIcons } from './mini-app-icons';

/**
 * Headers of a served icon, set once the icon is found: a 404 must not be cached for a year.
 * An icon's published URL changes with its content, so caches may keep an answer for good; the
 * policy keeps an SVG opened on its own from running anything.
 */
@Injectable()
class IconHeaders implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      tap(() => {
        void reply.headers({
          'cache-control': 'public, max-age=31536000, immutable',
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
        });
      }),
    );
  }
}

/** `GET /icons/<file>`: the mini-app icons of src/assets/icons. Never rate-limited. */
@Controller('icons')
@UseInterceptors(IconHeaders)
export class MiniAppIconsController {
  constructor(private readonly icons: MiniAppIcons) {}

  @Get(':file')
  icon(@Param('file') name: string): StreamableFile {
    const file = this.icons.get(name);
    if (!file) throw new NotFoundException('No such icon');
    return new StreamableFile(file.body, { type: file.contentType, length: file.body.length });
  }
}
