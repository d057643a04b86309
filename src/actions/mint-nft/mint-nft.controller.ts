import { Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import { permanentBaseUrl } from '../../config/published-base-url';
import {
  ActionContext,
  ActionController,
  ActionParams,
  type ExecutionResponse,
  type ContextOf,
  RunAction,
} from '../../kit';
import { mintNftAction, MintNftParams } from './mint-nft.action';
import { MintNftService } from './mint-nft.service';

@ActionController(mintNftAction)
export class MintNftController {
  constructor(
    private readonly mintNft: MintNftService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @RunAction()
  run(
    @ActionParams() params: MintNftParams,
    @ActionContext() context: ContextOf<typeof mintNftAction>,
    @Req() req: FastifyRequest,
  ): Promise<ExecutionResponse> {
    // Token URIs are permanent: set PUBLIC_BASE_URL in production rather than trust Host.
    const baseUrl = permanentBaseUrl(this.config, req);
    return this.mintNft.build(params, context, baseUrl);
  }
}
