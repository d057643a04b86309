import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { fuzzAction, type FuzzAction } from './fuzz.properties';
import { startFuzzTarget } from './fuzz.setup';

/** A few hundred runs per action here; `npm run fuzz -- --runs N` for the long run. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

describe('Every declared action under generated requests', () => {
  let app: NestFastifyApplication;
  let targets: FuzzAction[];

  beforeAll(async () => {
    ({ app, targets } = await startFuzzTarget());
  });
  afterAll(() => app.close());

  it('covers every action the service hosts', () => {
    expect(targets.map((t) => t.action.path)).toEqual(
      expect.arrayContaining(['/api/calculator', '/api/user-lookup', '/api/every-type']),
    );
  });

  it(`answers ${RUNS} generated requests per action within the contract`, async () => {
    for (const target of targets) await fuzzAction(app, target, RUNS);
  }, 120_000);
});
