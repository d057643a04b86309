import {
  BadRequestException,
  Body,
  Controller,
  Header,
  HttpCode,
  NotFoundException,
  Post,
} from '@nestjs/common';
import { readAddress } from '../contract/address';
import { ActionRegistry } from '../kit/action.registry';
import { buildChainCall, type ChainCall, ChainCallError } from './chain-call';
import { DEBUG_PAGE_CSP } from './debug-files';

/**
 * `POST /debug/chain-call`: a mini-app's `blockchain` or `transfer` action built into the
 * transaction the page hands the injected wallet. The action is read from the registry (what
 * is published), never from the request: the page sends only which one and the user's inputs.
 */
@Controller('debug/chain-call')
export class ChainCallController {
  constructor(private readonly registry: ActionRegistry) {}

  @Post()
  @HttpCode(200)
  @Header('Content-Security-Policy', DEBUG_PAGE_CSP)
  @Header('Cache-Control', 'no-store')
  build(@Body() body: unknown): ChainCall {
    const { miniApp, index, inputs, from } = (body ?? {}) as Record<string, unknown>;
    const group = this.registry.miniApps().find((entry) => entry.miniApp.id === miniApp);
    const action = Number.isSafeInteger(index) ? group?.chainActions[index as number] : undefined;
    if (!action) throw new NotFoundException('No such chain action');
    const sender = typeof from === 'string' ? readAddress(from) : undefined;
    if (!sender) throw new BadRequestException('from must be the wallet address');
    const texts: Record<string, string> = {};
    if (typeof inputs === 'object' && inputs !== null) {
      for (const [name, value] of Object.entries(inputs)) {
        if (typeof value === 'string') texts[name] = value;
      }
    }
    try {
      return buildChainCall(action, texts, sender);
    } catch (error) {
      if (error instanceof ChainCallError) throw new BadRequestException(error.message);
      throw error;
    }
  }
}
