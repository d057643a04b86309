import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { UPLOAD_CONFIG, type UploadConfig } from '../../config/upload.config';
import { ACTION_KEY } from '../action.decorator';
import type { ActionDeclaration } from '../../contract/action.types';
import { getDeclaredParams } from '../action-param.decorator';
import { setMultipartBody } from '../action-request';
import { readMultipart } from './multipart-reader';

/**
 * Reads an action's multipart body once the origin check and the rate limits have let the request
 * through (guards run in the order KitModule lists them): a refused upload is never read. Its
 * fields and files then stand in for a JSON body, `_sdk_context` for the body's context.
 */
@Injectable()
export class UploadBodyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(UPLOAD_CONFIG) private readonly config: UploadConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const declaration = this.reflector.get<ActionDeclaration | undefined>(
      ACTION_KEY,
      context.getClass(),
    );
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    if (!declaration || !req.isMultipart()) return true;
    const body = await readMultipart(req, getDeclaredParams(declaration.params), this.config);
    setMultipartBody(req, body);
    return true;
  }
}
