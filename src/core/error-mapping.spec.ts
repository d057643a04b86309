import {
  BadRequestException,
  HttpException,
  HttpStatus,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { ActionException, invalidParams } from './action.exception';
import { codeFor, mapError } from './error-mapping';

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
