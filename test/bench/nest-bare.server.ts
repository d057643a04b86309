import {
  Body,
  Controller,
  HttpCode,
  HttpException,
  Module,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { calculate } from './calculator.handwritten';
import { serve } from './nest-floor.parts';

/**
 * NestJS with nothing in it: the calculator as one controller on Nest's Fastify adapter, no CORS,
 * no guard, no interceptor, no filter (the handler writes the envelope and the request id itself;
 * Nest's own exception handling sends a refusal's body). What Nest's router alone serves: the
 * ceiling of anything built on it, the floor included.
 */
@Controller('api')
class CalculatorController {
  @Post('calculator')
  @HttpCode(200)
  run(
    @Body() body: unknown,
    @Query() query: Record<string, unknown>,
    // A bench baseline, not the service: passthrough sets a header and still returns the body.
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Record<string, unknown> {
    const answer = calculate(body, query, performance.now());
    void reply.header('x-request-id', answer.requestId);
    if (answer.status !== 200) throw new HttpException(answer.body, answer.status);
    return answer.body;
  }
}

@Module({ controllers: [CalculatorController] })
class BareModule {}

void serve(BareModule, { cors: false });
