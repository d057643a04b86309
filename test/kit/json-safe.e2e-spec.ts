import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp, postJson } from '../support/app.factory';
import { BLOCK, JsonSafeFixtureModule } from '../fixtures/json-safe.fixture';

/** bigint → decimal text, Date → ISO 8601 text: in data, in metadata, in the cache, in errors. */
describe('JSON-safe values', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({ actions: [JsonSafeFixtureModule] });
  });
  afterAll(() => app.close());

  const expected = {
    block: { number: (2n ** 64n + 1n).toString(), seenAt: '2026-01-02T03:04:05.678Z' },
    history: ['1', '2'],
  };

  it('answers bigints and dates in data and metadata as text, and caches the value', async () => {
    const first = await postJson(app, '/api/json-safe');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      success: true,
      data: expected,
      metadata: { cached: false, fetchedAt: BLOCK.seenAt.toISOString(), gas: '21000' },
    });
    const second = await postJson(app, '/api/json-safe');
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ data: expected, metadata: { cached: true } });
  });

  it('answers an ActionException whose data holds a bigint in its own status', async () => {
    const { status, body } = await postJson(app, '/api/json-safe-refusal');
    expect(status).toBe(422);
    expect(body).toMatchObject({
      success: false,
      error: 'Balance too low',
      statusCode: 422,
      data: { needed: (10n ** 30n).toString() },
    });
  });
});
