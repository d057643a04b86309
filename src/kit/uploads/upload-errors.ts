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

/** The spool cannot be written (upload-spool.ts): the service's failure, worth a retry later. */
export function storageUnavailable(): ActionException {
  return new ActionException(HttpStatus.SERVICE_UNAVAILABLE, 'Upload storage is unavailable', {
    message: 'The service cannot receive large files right now, please try again later',
    code: 'STORAGE_UNAVAILABLE',
  });
}
