import {
  Body,
  type CanActivate,
  Controller,
  type ExecutionContext,
  HttpCode,
  Injectable,
  Module,
  Post,
  Query,
  ValidationPipe,
} from '@nestjs/common';
import { APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { Type } from 'class-transformer';
import { IsIn, IsNumber, IsObject, ValidateNested } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { calculatorResult, FLOOR_PROVIDERS, serve } from './nest-floor.parts';

/**
 * The design card's shape with the card's own packages doing their stock work: the floor
 * (nest-floor.parts.ts) plus an origin guard, @nestjs/throttler's ThrottlerGuard counting two
 * named limits (per IP, and per user as `x-user-address` names one), and a global ValidationPipe
 * checking the calculator's body with class-validator and class-transformer. No access line, no
 * metrics. What a team gets who builds the card's shape from its packages, as their docs show:
 * the row the service's own layers (which do these jobs and log and count each answer) compare
 * with beside the floor.
 */
class CalculatorParams {
  @IsIn(['add', 'subtract', 'multiply', 'divide'])
  operation!: string;

  @IsNumber()
  a!: number;

  @IsNumber()
  b!: number;
}

class CalculatorBody {
  @IsObject()
  @ValidateNested()
  @Type(() => CalculatorParams)
  params!: CalculatorParams;
}

@Injectable()
class OriginGuard implements CanActivate {
  // ALLOWED_ORIGINS as the service reads it; unset (as in the bench) lets every origin in.
  private readonly allowed = new Set(
    (process.env.ALLOWED_ORIGINS ?? '').split(',').filter((origin) => origin !== ''),
  );

  canActivate(context: ExecutionContext): boolean {
    const origin = context.switchToHttp().getRequest<FastifyRequest>().headers.origin;
    return this.allowed.size === 0 || origin === undefined || this.allowed.has(origin);
  }
}

@Controller('api')
class CalculatorController {
  @Post('calculator')
  @HttpCode(200)
  run(
    @Body() body: CalculatorBody,
    @Query() query: Record<string, unknown>,
  ): { data: unknown; message: string } {
    // Its own controller only for the body's type, which ValidationPipe validates against.
    return calculatorResult(body, query);
  }
}

const userOrIp = (req: Record<string, unknown>): Promise<string> => {
  const user = (req.headers as Record<string, unknown>)['x-user-address'];
  return Promise.resolve(typeof user === 'string' ? user : String(req.ip));
};
// Out of reach, as the service's rows raise theirs: every request counted, none refused.
const OUT_OF_REACH = 1_000_000_000;

@Module({
  imports: [
    ThrottlerModule.forRoot([
      { name: 'ip', ttl: 60_000, limit: OUT_OF_REACH },
      { name: 'user', ttl: 60_000, limit: OUT_OF_REACH, getTracker: userOrIp },
    ]),
  ],
  controllers: [CalculatorController],
  providers: [
    { provide: APP_GUARD, useClass: OriginGuard },
    { provide: APP_GUARD, useClass: ThrottlerGuard },
    ...FLOOR_PROVIDERS,
    { provide: APP_PIPE, useValue: new ValidationPipe({ transform: true }) },
  ],
})
class CardModule {}

void serve(CardModule);
