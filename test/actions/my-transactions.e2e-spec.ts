import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import { describeActionConformance } from '../../src/testing';
import { createTestApp } from '../support/app.factory';

/**
 * /api/my-transactions under the conformance kit: the kit signs its calls in (a session of the
 * app), checks the 401 without one and the 403 for another user's claim. Its listing itself is
 * proven on the local chain in test/auth (sessions, Redis).
 */
describe('my-transactions', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp({ actions: [MyTransactionsModule] });
  });
  afterAll(() => app?.close());

  describeActionConformance(() => app, '/api/my-transactions', {
    valid: [{ params: { limit: 5 } }, { params: {} }],
  });
});
