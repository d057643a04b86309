import { Module } from '@nestjs/common';
import { CalculatorController, FLOOR_PROVIDERS, serve } from './nest-floor.parts';

/**
 * Issue 23's floor: the calculator on Nest's Fastify adapter with the design card's layers doing
 * the least they can (nest-floor.parts.ts): `app.enableCors()`, one global guard, one global
 * interceptor, one global exception filter; no throttler and no ValidationPipe.
 */
@Module({ controllers: [CalculatorController], providers: FLOOR_PROVIDERS })
class FloorModule {}

void serve(FloorModule);
