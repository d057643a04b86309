import type { FastifyRequest } from 'fastify';
import { bearerToken } from './verified-user';

const req = (authorization?: string): FastifyRequest =>
  ({ headers: authorization === undefined ? {} : { authorization } }) as FastifyRequest;

describe('bearerToken', () => {
  it('reads the token of a Bearer header, whatever the scheme’s case', () => {
    expect(bearerToken(req('Bearer abc.def.ghi'))).toBe('abc.def.ghi');
    expect(bearerToken(req('bearer abc'))).toBe('abc');
  });

  it('a Bearer without a single token is empty (refused); another scheme is not ours', () => {
    expect(bearerToken(req('Bearer'))).toBe('');
    expect(bearerToken(req('Bearer a b'))).toBe('');
    expect(bearerToken(req('Basic dXNlcjpwYXNz'))).toBeUndefined();
    expect(bearerToken(req())).toBeUndefined();
  });
});
