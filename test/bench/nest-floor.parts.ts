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
  HttpCode,
  HttpException,
  Injectable,
  type NestInterceptor,
  Post,
  Query,
  type Type,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { map, type Observable } from 'rxjs';
import { calculate } from './calculator.handwritten';

/**
 * The pieces of the floor issue 23 defines: the calculator on Nest's Fastify adapter with the design card's
 * layers doing the least they can. `app.enableCors()`, one global guard that reads
 * `x-user-address`, one global interceptor that wraps the result in the envelope with
 * `timestamp`, `requestId` and `executionTime`, one global exception filter; no throttler and no
 * ValidationPipe. What any service of the card's shape can at best serve. nest-floor.server.ts serves them
 * alone; nest-card.server.ts adds the card's own packages doing their stock work.
 */
type FloorRequest = FastifyRequest & { user?: string; requestId?: string };
const REQUEST_ID = /^[\w.:-]{1,128}$/;

@Injectable()
export class UserGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<FloorRequest>();
    const user = req.headers['x-user-address'];
    req.user = typeof user === 'string' ? user : undefined;
    return true;
  }
}

@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<FloorRequest>();
    const reply = http.getResponse<FastifyReply>();
    const started = performance.now();
    const incoming = req.headers['x-request-id'];
    const requestId =
      typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.requestId = requestId;
    void reply.header('x-request-id', requestId);
    return next.handle().pipe(
      map((result: { data: unknown; message: string }) => ({
        success: true,
        data: result.data,
        message: result.message,
        statusCode: reply.statusCode,
        metadata: {
          timestamp: Date.now(),
          requestId,
          executionTime: Math.round((performance.now() - started) * 100) / 100,
        },
      })),
    );
  }
}

/** The calculator's refusals carry their envelope (the handwritten one); anything else is a 500. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const status = error instanceof HttpException ? error.getStatus() : 500;
    const body =
      error instanceof HttpException
        ? error.getResponse()
        : { success: false, error: 'Internal error', statusCode: 500 };
    void host.switchToHttp().getResponse<FastifyReply>().code(status).send(body);
  }
}

/** The calculator's result for the envelope interceptor; a refusal thrown with its envelope. */
export function calculatorResult(
  body: unknown,
  query: Record<string, unknown>,
): { data: unknown; message: string } {
  const answer = calculate(body, query, performance.now());
  if (answer.status !== 200) throw new HttpException(answer.body, answer.status);
  return { data: answer.body.data, message: answer.body.message as string };
}

@Controller('api')
export class CalculatorController {
  @Post('calculator')
  @HttpCode(200)
  run(
    @Body() body: unknown,
    @Query() query: Record<string, unknown>,
  ): { data: unknown; message: string } {
    return calculatorResult(body, query);
  }
}

/** The floor's global guard, interceptor and filter. */
export const FLOOR_PROVIDERS = [
  { provide: APP_GUARD, useClass: UserGuard },
  { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
  { provide: APP_FILTER, useClass: ErrorFilter },
];

/** Boots `module` on Nest's Fastify adapter (with CORS unless told) on PORT; closes on a signal. */
export async function serve(module: Type, { cors = true } = {}): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter(), {
    logger: false,
  });
  if (cors) app.enableCors();
  await app.listen(Number(process.env.PORT ?? 3100), '127.0.0.1');
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => void app.close().then(() => process.exit(0)));
}
