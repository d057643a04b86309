import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { describeActionConformance } from '../../src/testing';
import { createTestApp, postJson } from '../support/app.factory';

describe('Calculator action (contract worked example)', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  describeActionConformance(() => app, '/api/calculator');

  it.each([
    ['add', 1.5, 2, 3.5],
    ['subtract', 10, 4.25, 5.75],
    ['multiply', -3, 2.5, -7.5],
    ['divide', 7, 2, 3.5],
  ])('%s computes the result in the success envelope', async (operation, a, b, result) => {
    const { status, body } = await postJson(app, '/api/calculator', {
      params: { operation, a, b },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      statusCode: 200,
      data: { operation, a, b, result },
    });
    expect(body.message).toContain(String(result));
    expect(body.metadata).toEqual({
      timestamp: expect.any(Number),
      requestId: expect.any(String),
      executionTime: expect.any(Number),
    });
  });

  it('reads decimal numbers sent as text', async () => {
    const { body } = await postJson(app, '/api/calculator', {
      params: { operation: 'add', a: '0.25', b: '1e1' },
    });
    expect(body.data).toEqual({ operation: 'add', a: 0.25, b: 10, result: 10.25 });
  });

  it('names every missing parameter with status 400', async () => {
    const { status, body } = await postJson(app, '/api/calculator', { params: { a: 1 } });
    expect(status).toBe(400);
    expect(body).toMatchObject({
      success: false,
      statusCode: 400,
      error: 'operation is required, b is required',
      data: { invalidParams: ['operation', 'b'] },
    });
  });

  it('refuses division by zero', async () => {
    const { status, body } = await postJson(app, '/api/calculator', {
      params: { operation: 'divide', a: 1, b: 0 },
    });
    expect(status).toBe(400);
    expect(body.success).toBe(false);
    expect(body.error).toMatch(/division by zero/i);
  });

  it('names an invalid operation', async () => {
    const { status, body } = await postJson(app, '/api/calculator', {
      params: { operation: 'modulo', a: 1, b: 2 },
    });
    expect(status).toBe(400);
    expect(body.error).toBe('operation must be one of: add, subtract, multiply, divide');
    expect(body.message).toContain('modulo');
  });

  it('rejects a result too large to represent rather than answering null', async () => {
    const { status, body } = await postJson(app, '/api/calculator', {
      params: { operation: 'multiply', a: 1e308, b: 10 },
    });
    expect(status).toBe(400);
    expect(body.success).toBe(false);
  });
});
