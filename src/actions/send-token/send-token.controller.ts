import {
  ActionContext,
  ActionController,
  ActionParams,
  type ExecutionResponse,
  type ContextOf,
  RunAction,
} from '../../kit';
import { sendTokenAction, SendTokenParams } from './send-token.action';
import { SendTokenService } from './send-token.service';

@ActionController(sendTokenAction)
export class SendTokenController {
  constructor(private readonly sendToken: SendTokenService) {}

  @RunAction()
  run(
    @ActionParams() params: SendTokenParams,
    @ActionContext() context: ContextOf<typeof sendTokenAction>,
  ): Promise<ExecutionResponse> {
    return this.sendToken.build(params, context);
  }
}
