import { Module } from '@nestjs/common';
import { ChainCallController } from './chain-call.controller';
import { DebugController } from './debug.controller';
import { PlatformChecks } from './platform-checks';

/** The debugger page (`GET /debug`); AppModule imports it only when DEBUG_UI is on. */
@Module({
  controllers: [DebugController, ChainCallController],
  providers: [PlatformChecks],
})
export class DebugModule {}
