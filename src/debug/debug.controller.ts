import {
  applyDecorators,
  BadRequestException,
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Inject,
  NotFoundException,
  Post,
  Req,
  StreamableFile,
  UseGuards,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Abi } from 'viem';
import { BLINKS_CONFIG, type BlinksConfig } from '../blinks/blinks.config';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ActionRegistry } from '../kit/action.registry';
import { fileAnswer } from '../kit/immutable-file';
import { type DebugContext, debugContext } from './debug-context';
import { DecodeThrottleGuard } from './decode-throttle.guard';
import { DEBUG_PAGE_CSP, type DebugFile, readDebugFiles } from './debug-files';
import { type MiniAppCheck, PlatformChecks } from './platform-checks';
import { DecodeError, type DecodedTransaction, decodeTransaction } from './transaction-decoder';

/** Longer than any transaction an action answers, short enough to parse at once. */
const MAX_SERIALIZED_LENGTH = 262_144;

/** Every answer of the page: its policy, and never cached (it follows the running code). */
const DebugHeaders = (): MethodDecorator =>
  applyDecorators(
    Header('Content-Security-Policy', DEBUG_PAGE_CSP),
    Header('Cache-Control', 'no-store'),
    Header('X-Content-Type-Options', 'nosniff'),
    Header('Referrer-Policy', 'no-referrer'),
  );

/**
 * `GET /debug`: the local debugger page (static files) and the few things it asks the server
 * for. Registered only under DEBUG_UI; not an action, so no origin check applies; `decode`, which
 * costs CPU, counts against the IP rate limit (DecodeThrottleGuard).
 */
@Controller('debug')
export class DebugController {
  private readonly files: ReadonlyMap<string, DebugFile> = readDebugFiles();

  constructor(
    private readonly registry: ActionRegistry,
    private readonly checks: PlatformChecks,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(BLINKS_CONFIG) private readonly blinks: BlinksConfig,
  ) {}

  @Get()
  @DebugHeaders()
  page(): StreamableFile {
    return this.file('index.html');
  }

  @Get('debug.js')
  @DebugHeaders()
  script(): StreamableFile {
    return this.file('debug.js');
  }

  @Get('debug.css')
  @DebugHeaders()
  styles(): StreamableFile {
    return this.file('debug.css');
  }

  /** Samples and chains: what the published documents do not hold. */
  @Get('context')
  @DebugHeaders()
  context(): DebugContext {
    return debugContext(this.registry, this.blinks.enabled);
  }

  /** The platform's metadata rules on each mini-app, as published for this request's base URL. */
  @Get('checks')
  @DebugHeaders()
  platformChecks(@Req() req: FastifyRequest): MiniAppCheck[] {
    const baseUrl =
      this.config.publicBaseUrl ?? (req.host ? `${req.protocol}://${req.host}` : undefined);
    if (baseUrl === undefined) throw new BadRequestException('The Host header is required');
    return this.checks.run(baseUrl);
  }

  /** `{serializedTransaction, abi?}` of an action's answer, decoded. */
  @Post('decode')
  @UseGuards(DecodeThrottleGuard)
  @HttpCode(200)
  @DebugHeaders()
  decode(@Body() body: unknown): DecodedTransaction {
    const { serializedTransaction, abi } = (body ?? {}) as Record<string, unknown>;
    if (
      typeof serializedTransaction !== 'string' ||
      serializedTransaction.length === 0 ||
      serializedTransaction.length > MAX_SERIALIZED_LENGTH
    ) {
      throw new BadRequestException('serializedTransaction must be a non-empty string');
    }
    if (abi !== undefined && !Array.isArray(abi)) {
      throw new BadRequestException('abi must be an array when present');
    }
    try {
      return decodeTransaction(serializedTransaction, abi as Abi | undefined);
    } catch (error) {
      if (error instanceof DecodeError) throw new BadRequestException(error.message);
      throw error;
    }
  }

  private file(name: string): StreamableFile {
    const file = this.files.get(name);
    if (!file) throw new NotFoundException();
    return fileAnswer(file.body, file.contentType);
  }
}
