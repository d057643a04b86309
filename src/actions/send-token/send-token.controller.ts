import {
  ActionContext,
  ActionController,
  ActionParams,
  type ExecutionResponse,
  type RequestContext,
  RunAction,
} from '../../core';
import { sendTokenAction, SendTokenParams } from './send-token.action';
import { SendTokenService } from './send-token.service';

@ActionController(sendTokenAction)
export class SendTokenController {
  constructor(private readonly sendToken: SendTokenService) {}

  @RunAction()
  run(
    @ActionParams() params: SendTokenParams,
    @ActionContext() context: RequestContext,
  ): Promise<ExecutionResponse> {
    return this.sendToken.build(params, context);
  }
}
