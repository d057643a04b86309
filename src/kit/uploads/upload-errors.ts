import { HttpStatus } from '@nestjs/common';
import { ActionException } from '../../contract/action.exception';

export function tooLarge(error: string, param?: string): ActionException {
  return new ActionException(HttpStatus.PAYLOAD_TOO_LARGE, error, {
    message: 'The upload is too large',
    code: 'PAYLOAD_TOO_LARGE',
    ...(param !== undefined && { data: { invalidParams: [param] } }),
  });
}

export function badRequest(error: string, param?: string): ActionException {
  return new ActionException(HttpStatus.BAD_REQUEST, error, {
    code: 'VALIDATION_ERROR',
    ...(param !== undefined && { data: { invalidParams: [param] } }),
  });
}
