import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { UPLOAD_CONFIG, type UploadConfig } from '../config/upload.config';
import { ActionCall } from './action-call';
import { getDeclaredParams } from './action-param.decorator';
import { readMultipart } from './uploads/multipart-reader';

/**
 * Reads an action's multipart body once the origin check and the rate limits have let the request
 * through (guards run in the order KitModule lists them): a refused upload is never read. Its
 * fields and files then stand in for a JSON body in the request's ActionCall, `_sdk_context` for
 * the body's context.
 */
@Injectable()
export class UploadBodyGuard implements CanActivate {
  constructor(@Inject(UPLOAD_CONFIG) private readonly config: UploadConfig) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const call = ActionCall.of(context);
    if (!call?.awaitsUpload) return true;
    const params = getDeclaredParams(call.declaration.params);
    call.takeUpload(await readMultipart(call.req, params, this.config));
    return true;
  }
}
