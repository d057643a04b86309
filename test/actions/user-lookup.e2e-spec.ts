import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { UserLookupModule } from '../../src/actions/user-lookup/user-lookup.module';
import { describeActionConformance } from '../../src/testing';
import { createTestApp, postJson } from '../support/app.factory';

describe('User lookup action (contract worked example)', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({ actions: [UserLookupModule] });
  });
  afterAll(() => app.close());

  describeActionConformance(() => app, '/api/user-lookup');

  it('answers a known user with their fields', async () => {
    const { status, body } = await postJson(app, '/api/user-lookup', { params: { userId: '2' } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, statusCode: 200, data: { id: '2' } });
  });

  it('answers 404 for a user that does not exist', async () => {
    const { status, body } = await postJson(app, '/api/user-lookup', {
      params: { userId: 'nobody' },
    });
    expect(status).toBe(404);
    expect(body).toMatchObject({ success: false, statusCode: 404 });
  });

  it('names the missing userId with status 400', async () => {
    const { status, body } = await postJson(app, '/api/user-lookup', { params: {} });
    expect(status).toBe(400);
    expect(body.error).toMatch(/userId/);
  });
});
