import { Injectable, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { ActionController, type ActionResult, defineAction, RunAction } from '../../src/kit';
import { createTestApp, postJson } from '../support/app.factory';
import { KitFixturesModule } from '../fixtures/kit.fixture';
import { TEST_MINI_APP } from '../fixtures/mini-apps.fixture';
import { testLogs } from '../support/log-capture.helper';

/** A team's provider, logging the way nestjs-pino documents it. */
@Injectable()
class TeamService {
  constructor(
    private readonly plain: PinoLogger,
    @InjectPinoLogger('TeamService') private readonly named: PinoLogger,
  ) {}

  work(): void {
    this.plain.info({ step: 1 }, 'plain PinoLogger');
    this.named.warn({ step: 2 }, 'decorated PinoLogger');
  }
}

@ActionController(
  defineAction({
    label: 'Team logs',
    chains: { source: 43113 },
    path: '/api/team-logs',
    miniApp: TEST_MINI_APP,
    responseType: 'data',
  }),
)
class TeamLogsController {
  constructor(private readonly team: TeamService) {}

  @RunAction()
  run(): ActionResult {
    this.team.work();
    return { data: { ok: true }, message: 'logged' };
  }
}

@Module({ controllers: [TeamLogsController], providers: [TeamService] })
class TeamModule {}

describe("nestjs-pino's own injection, and access line levels", () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({ actions: [TeamModule, KitFixturesModule] });
  });
  afterAll(() => app.close());
  beforeEach(() => testLogs.clear());

  it("a team's provider injects PinoLogger and @InjectPinoLogger(), its lines carry the request id", async () => {
    const response = await postJson(app, '/api/team-logs', { params: {} });
    expect(response.status).toBe(200);
    const reqId = response.headers['x-request-id'] as string;
    const lines = testLogs.ofRequest(reqId);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'info', step: 1, msg: 'plain PinoLogger' }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        step: 2,
        context: 'TeamService',
        msg: 'decorated PinoLogger',
      }),
    );
  });

  it('5xx access lines at error, 4xx at info', async () => {
    const broken = await postJson(app, '/api/data-broken', { params: {} });
    expect(broken.status).toBe(500);
    expect(testLogs.accessLine(broken.headers['x-request-id'] as string)?.level).toBe('error');
    const refused = await postJson(app, '/api/echo', { params: { amount: 'many' } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(testLogs.accessLine(refused.headers['x-request-id'] as string)?.level).toBe('info');
  });
});
