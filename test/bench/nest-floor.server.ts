import 'reflect-metadata';
import {
  type ArgumentsHost,
  Body,
  type CallHandler,
  Catch,
  type CanActivate,
  Controller,
  type ExceptionFilter,
  type ExecutionContext,
  Injectable,
  Module,
  type NestInterceptor,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';
import { calculate, CORS_HEADERS } from './calculator.handwritten';

/**
 * The floor the design card sets: the calculator on Nest's Fastify adapter behind five global
 * guards that let everything through, one global interceptor and one exception filter, each
 * doing nothing else. What the service can at best serve while it keeps that shape.
 */
@Injectable()
class PassGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}
@Injectable()
class PassInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((body: unknown) => body));
  }
}
@Catch()
class PassFilter implements ExceptionFilter {
  catch(_error: unknown, host: ArgumentsHost): void {
    void host.switchToHttp().getResponse<FastifyReply>().code(500).send();
  }
}

@Controller('api')
class CalculatorController {
  // passthrough: the answer still goes through the interceptor, as the service's do.
  @Post('calculator')
  run(
    @Body() body: unknown,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Record<string, unknown> {
    const header = req.headers['x-request-id'];
    const answer = calculate(
      body,
      req.query as Record<string, unknown>,
      performance.now(),
      typeof header === 'string' ? header : undefined,
    );
    void reply.code(answer.status).header('x-request-id', answer.requestId);
    return answer.body;
  }
}

const guards = Array.from({ length: Number(process.env.FLOOR_GUARDS ?? 5) }).map(() => ({
  provide: APP_GUARD,
  useClass: PassGuard,
}));
@Module({
  controllers: [CalculatorController],
  providers: [
    ...guards,
    ...(process.env.FLOOR_INTERCEPTOR === '0'
      ? []
      : [{ provide: APP_INTERCEPTOR, useClass: PassInterceptor }]),
    { provide: APP_FILTER, useClass: PassFilter },
  ],
})
class FloorModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(FloorModule, new FastifyAdapter(), {
    logger: false,
  });
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', (_req, reply, payload, done) => {
      void reply.headers(CORS_HEADERS);
      done(null, payload);
    });
  await app.listen(Number(process.env.PORT ?? 3100), '127.0.0.1');
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => void app.close().then(() => process.exit(0)));
}
void main();
