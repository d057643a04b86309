import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ActionController, type ActionResult, defineAction, RunAction } from '../../src/kit';
import { declaredActions } from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { EchoController, WhoAmIController } from '../fixtures/echo.fixture';
import { TEST_MINI_APP } from '../fixtures/mini-apps.fixture';

@ActionController(
  defineAction({
    label: 'Calls out',
    chains: { source: 43113 },
    path: '/api/calls-out',
    miniApp: TEST_MINI_APP,
    responseType: 'data',
    callsOutside: true,
  }),
)
class CallsOutController {
  @RunAction()
  run(): ActionResult {
    return { data: 'would call an API' };
  }
}

@Module({ controllers: [EchoController, WhoAmIController, CallsOutController] })
class DeclaredFixturesModule {}

describe('declaredActions: what suites learn from the declarations', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({ actions: [DeclaredFixturesModule] });
  });
  afterAll(() => app.close());

  it('reports callsOutside and requiresUser as each action declares them', () => {
    const facts = Object.fromEntries(
      declaredActions(app).map(({ action, callsOutside, requiresUser }) => [
        action.path,
        { callsOutside, requiresUser },
      ]),
    );
    expect(facts).toEqual({
      '/api/echo': { callsOutside: false, requiresUser: false },
      '/api/who-am-i': { callsOutside: false, requiresUser: true },
      '/api/calls-out': { callsOutside: true, requiresUser: false },
    });
  });
});
