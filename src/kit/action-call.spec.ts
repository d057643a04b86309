import type { ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ActionException } from '../contract/action.exception';
import { ActionCall } from './action-call';
import { ActionController, defineAction } from './action.decorator';
import { ActionParam } from './action-param.decorator';
import { defineMiniApp } from './mini-app';

const USER = '0x52908400098527886E0F7030069857D2E4169EE7';
const OTHER = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';

class Params {
  @ActionParam({ type: 'number', label: 'A', required: true })
  a!: number;
}

const declaration = defineAction({
  label: 'Call',
  chains: { source: 43113 },
  path: '/api/call',
  miniApp: defineMiniApp({ id: 'call-spec', title: 'Call spec', description: 'Calls' }),
  params: Params,
  responseType: 'data',
});

@ActionController(declaration)
class CallController {}
class NotAnAction {}

interface Fake {
  body?: unknown;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  multipart?: boolean;
}

const request = ({ body, query = {}, headers = {}, multipart = false }: Fake): FastifyRequest =>
  ({
    id: 'req-1',
    body,
    query,
    headers,
    isMultipart: () => multipart,
  }) as unknown as FastifyRequest;

const step = (req: FastifyRequest, controller: object = CallController): ExecutionContext =>
  ({
    getArgByIndex: (index: number) => (index === 0 ? req : undefined),
    getClass: () => controller,
  }) as unknown as ExecutionContext;

describe('ActionCall', () => {
  it('is built once per request and read by every later step, with its declaration', () => {
    const req = request({ body: { params: { a: 1 } }, headers: { 'x-user-address': USER } });
    const first = ActionCall.of(step(req));
    expect(first?.declaration).toBe(declaration);
    // A later step, even one that could not name the class, reads the same call.
    expect(ActionCall.of(step(req, NotAnAction))).toBe(first);
    expect(first?.context).toBe(first?.context);
    expect(first?.params()).toBe(first?.params());
    expect(first?.params()).toEqual({ a: 1 });
  });

  it('is none for a route that is no action', () => {
    expect(ActionCall.of(step(request({}), NotAnAction))).toBeUndefined();
  });

  it('takes a multipart body without rewriting req.body, and reads it as the body', () => {
    const req = request({ headers: { 'x-user-address': USER }, multipart: true });
    const call = ActionCall.of(step(req))!;
    expect(call.awaitsUpload).toBe(true);
    call.takeUpload({
      fields: { a: '7', _sdk_context: JSON.stringify({ sourceChain: 43113 }) },
      files: new Map(),
    });
    expect(call.awaitsUpload).toBe(false);
    expect(req.body).toBeUndefined();
    expect(call.params()).toEqual({ a: 7 });
    expect(call.context).toMatchObject({ userAddress: USER, sourceChain: 43113 });
  });

  it('gives the rate limits the user that arrived before the body, none when malformed', () => {
    const lower = OTHER.toLowerCase();
    const waiting = ActionCall.of(
      step(request({ headers: { 'x-user-address': lower }, multipart: true })),
    );
    expect(waiting?.userForLimits()).toBe(OTHER);
    const malformed = ActionCall.of(step(request({ headers: { 'x-user-address': '0xnope' } })));
    expect(malformed?.userForLimits()).toBeUndefined();
    expect(() => malformed?.context).toThrow(ActionException);
  });

  it('refuses invalid params with the 400 of the kit, every time it is asked', () => {
    const call = ActionCall.of(step(request({ body: { params: {} } })))!;
    expect(() => call.params()).toThrow('a is required');
    expect(() => call.params()).toThrow(ActionException);
  });
});
