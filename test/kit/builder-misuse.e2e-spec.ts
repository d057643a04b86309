import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  ActionContext,
  ActionController,
  type ContextOf,
  defineAction,
  type ExecutionResponse,
  RunAction,
  TransactionBuilder,
  TransactionModule,
} from '../../src/kit';
import { createTestApp, postJson } from '../support/app.factory';
import { TEST_MINI_APP } from '../fixtures/mini-apps.fixture';

const USER = '0x52908400098527886E0F7030069857D2E4169EE7';

const misuseAction = defineAction({
  label: 'Builds on a chain nobody configured',
  chains: { source: 43113 },
  path: '/api/builder-misuse',
  miniApp: TEST_MINI_APP,
  requiresUser: true,
});

@ActionController(misuseAction)
class MisuseController {
  constructor(private readonly builder: TransactionBuilder) {}

  @RunAction()
  run(@ActionContext() context: ContextOf<typeof misuseAction>): Promise<ExecutionResponse> {
    return this.builder.build({ chainId: 999, to: USER, value: 1n }, context);
  }
}

@Module({ imports: [TransactionModule], controllers: [MisuseController] })
class MisuseModule {}

describe('A transaction builder misuse in production', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({ env: { NODE_ENV: 'production' }, actions: [MisuseModule] });
  });
  afterAll(() => app.close());

  it('answers 500 BUILDER_MISUSE naming the cause, in the transaction error shape', async () => {
    const { status, body } = await postJson(
      app,
      '/api/builder-misuse',
      {},
      { 'x-user-address': USER },
    );
    expect(status).toBe(500);
    expect(body).toEqual({
      error: 'Transaction builder misuse: chain 999 is not configured',
      code: 'BUILDER_MISUSE',
    });
  });
});
