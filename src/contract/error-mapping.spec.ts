import {
  BadRequestException,
  HttpException,
  HttpStatus,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { errorCodes } from 'fastify';
import { ActionException, invalidParams } from './action.exception';
import { codeFor, isClientAbort, mapError } from './error-mapping';

/** What Fastify hands on when a client drops its connection mid-body. */
function abortedBody(): Error {
  return Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 });
}

describe('codeFor', () => {
  it.each([
    [400, 'VALIDATION_ERROR'],
    [403, 'ORIGIN_NOT_ALLOWED'],
    [404, 'NOT_FOUND'],
    [413, 'PAYLOAD_TOO_LARGE'],
    [429, 'RATE_LIMITED'],
    [500, 'INTERNAL_ERROR'],
    [501, 'INTERNAL_ERROR'],
    [418, 'REQUEST_ERROR'],
  ])('gives status %i the stable code %s', (status, code) => {
    expect(codeFor(status)).toBe(code);
  });
});

describe('mapError', () => {
  it('keeps what an ActionException says, with its code defaulting from the status', () => {
    const thrown = new ActionException(HttpStatus.NOT_FOUND, 'User 9 not found', {
      message: 'No user has this ID',
      data: { userId: '9' },
    });
    expect(mapError(thrown)).toEqual({
      status: 404,
      error: 'User 9 not found',
      message: 'No user has this ID',
      data: { userId: '9' },
      code: 'NOT_FOUND',
    });
  });

  it('uses the error text as the message and honours an explicit code', () => {
    const mapped = mapError(
      new ActionException(HttpStatus.BAD_GATEWAY, 'Weather API failed', { code: 'UPSTREAM' }),
    );
    expect(mapped).toMatchObject({
      status: 502,
      error: 'Weather API failed',
      message: 'Weather API failed',
      code: 'UPSTREAM',
    });
    expect(mapped.details).toBeUndefined();
  });

  it('maps parameter problems to one 400 joined with ", " and naming each parameter', () => {
    const mapped = mapError(
      invalidParams([
        { name: 'a', message: 'a is required' },
        { name: 'b', message: 'b must be a valid number', value: 'x' },
        { name: 'b', message: 'b must be at most 3', value: 9 },
      ]),
    );
    expect(mapped).toEqual({
      status: 400,
      error: 'a is required, b must be a valid number, b must be at most 3',
      message: expect.stringContaining('x'),
      data: { invalidParams: ['a', 'b'] },
      code: 'VALIDATION_ERROR',
    });
  });

  it('shortens a long echoed value in the user-readable message', () => {
    const { message } = mapError(
      invalidParams([{ name: 'a', message: 'a is bad', value: 'v'.repeat(500) }]),
    );
    expect(message.length).toBeLessThan(100);
  });

  it.each([
    ['a string body', new NotFoundException('No action at /x'), 404, 'No action at /x'],
    [
      'a message array',
      new BadRequestException({ message: ['a is bad', 'b is bad'] }),
      400,
      'a is bad, b is bad',
    ],
    ['a default body', new NotFoundException(), 404, 'Not Found'],
  ])('reads a Nest HTTP exception with %s', (_, thrown, status, error) => {
    expect(mapError(thrown)).toMatchObject({ status, error, code: codeFor(status) });
    expect(mapError(thrown).details).toBeUndefined();
  });

  it('gives a 413 a user-readable message', () => {
    const mapped = mapError(new PayloadTooLargeException('Request body is too large'));
    expect(mapped).toMatchObject({ status: 413, error: 'Request body is too large' });
    expect(mapped.message).not.toBe(mapped.error);
  });

  it.each([
    ['an Error', new Error('ECONNREFUSED http://10.0.0.1?key=s3cret'), 500],
    ['a thrown string', 'key=s3cret', 500],
    ['a 5xx HttpException', new HttpException('db at http://10.0.0.1 down (key=s3cret)', 500), 500],
  ])('hides the text of %s behind a generic 500 and keeps it as details', (_, thrown, status) => {
    const mapped = mapError(thrown);
    expect(mapped.status).toBe(status);
    expect(mapped.code).toBe('INTERNAL_ERROR');
    expect(mapped.error).not.toContain('s3cret');
    expect(mapped.message).not.toContain('s3cret');
    expect(mapped.details).toContain('s3cret');
    expect(mapped.details).not.toMatch(/\n\s+at /);
  });

  it('keeps the status of a 503 with a generic text', () => {
    const mapped = mapError(new ServiceUnavailableException('redis://10.0.0.2 is down'));
    expect(mapped).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(mapped.error).not.toContain('10.0.0.2');
  });
});

describe('mapError with errors of Fastify', () => {
  it.each([
    [
      'a body over the limit',
      new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(),
      413,
      'PAYLOAD_TOO_LARGE',
    ],
    [
      'an unsupported media type',
      new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE('text/<script>'),
      415,
      'REQUEST_ERROR',
    ],
    [
      'a body shorter than its Content-Length',
      new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH(),
      400,
      'VALIDATION_ERROR',
    ],
    ['an upload the client abandoned', abortedBody(), 400, 'VALIDATION_ERROR'],
  ])('keeps the 4xx of %s with a fixed text, not a 500', (_, thrown, status, code) => {
    const mapped = mapError(thrown);
    expect(mapped).toMatchObject({ status, code });
    expect(mapped.details).toBeUndefined();
    expect(mapped.error).not.toMatch(/script|aborted/);
    expect(mapped.message).not.toBe('');
  });

  it("does not believe the statusCode of an error that is not Fastify's", () => {
    const upstream = Object.assign(new Error('GET http://10.0.0.1/x answered 404'), {
      statusCode: 404,
    });
    expect(mapError(upstream)).toMatchObject({ status: 500, code: 'INTERNAL_ERROR' });
  });
});

describe('isClientAbort', () => {
  it('recognises a connection reset while the request was still arriving', () => {
    expect(isClientAbort(abortedBody(), { destroyed: true, complete: false })).toBe(true);
    expect(isClientAbort(abortedBody(), { aborted: true })).toBe(true);
    const premature = Object.assign(new Error('Premature close'), {
      code: 'ERR_STREAM_PREMATURE_CLOSE',
    });
    expect(isClientAbort(premature, { destroyed: true, complete: false })).toBe(true);
  });

  it('does not take a reset of another connection (an upstream) for the client leaving', () => {
    expect(isClientAbort(abortedBody(), { destroyed: false, complete: true })).toBe(false);
    expect(isClientAbort(abortedBody())).toBe(false);
    expect(isClientAbort(new Error('aborted'), { aborted: true })).toBe(false);
  });
});
