import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';
import { UPLOAD_CONFIG, type UploadConfig } from '../config/upload.config';
import { ChainRegistry } from '../evm/chains/chain-registry';
import { ActionCall } from './action-call';
import { getDeclaredParams } from './action-param.decorator';
import { readActionRequest } from './action-request';
import { readMultipart } from './uploads/multipart-reader';
import { UploadAdmission } from './uploads/upload-admission';
import { tooLarge } from './uploads/upload-errors';
import { UploadSpool } from './uploads/upload-spool';
import { replyOf } from './http-args';

/**
 * Reads an action's multipart body once the origin check and the rate limits have let the request
 * through (guards run in the order KitModule lists them), and only after everything its head
 * says has passed: the user and chains named in headers or query (400), the uploads this client
 * runs (429) and the room left for uploads in flight (503). A refused upload is never read. Its
 * fields and files then stand in for a JSON body in the request's ActionCall, `_sdk_context` for
 * the body's context. Its bytes stay reserved and its temporary files exist until the answer is
 * sent (or the client is gone).
 */
@Injectable()
export class UploadBodyGuard implements CanActivate {
  constructor(
    @Inject(UPLOAD_CONFIG) private readonly config: UploadConfig,
    private readonly admission: UploadAdmission,
    private readonly chains: ChainRegistry,
  ) {}

  /** Synchronous, with no promise made, for the requests that carry no upload (almost all). */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const call = ActionCall.of(context);
    if (!call?.awaitsUpload) return true;
    return this.read(call, context);
  }

  private async read(call: ActionCall, context: ExecutionContext): Promise<boolean> {
    // The head's context comes first whatever the body says (action-request.ts): checked now.
    this.chains.assertServes(call.declaration, readActionRequest(call.req).context);
    const declared = declaredLength(call.req);
    if (declared !== undefined && declared > this.config.maxBytes)
      throw tooLarge(`Upload larger than ${this.config.maxBytes} bytes`);
    const ticket = this.admission.admit(normalizeIp(call.req.ip), declared);
    const spool = new UploadSpool();
    const reply = replyOf(context);
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      ticket.release();
      void spool.remove().catch(() => undefined);
    };
    reply.raw.once('finish', end).once('close', end);
    const params = getDeclaredParams(call.declaration.params);
    call.takeUpload(await readMultipart(call.req, params, this.config, { ticket, spool }));
    return true;
  }
}

function declaredLength(req: FastifyRequest): number | undefined {
  const header = req.headers['content-length'];
  const length = header === undefined ? NaN : Number(header);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}
