import { loadConfig } from '../config/app.config';
import { bootWarnings } from './boot-warnings';

describe('bootWarnings', () => {
  const warnings = (env: Record<string, string>): string[] => bootWarnings(loadConfig(env), env);

  it('warns when replicas are likely and Redis is absent', () => {
    const base = { NODE_ENV: 'test' };
    expect(warnings({ ...base, REPLICAS: '3' })).toEqual([
      expect.stringMatching(/^REDIS_URL is not set/),
    ]);
    expect(warnings({ ...base, KUBERNETES_SERVICE_HOST: '10.96.0.1' })).toHaveLength(1);
    expect(warnings({ ...base, REPLICAS: '3', REDIS_URL: 'redis://redis:6379' })).toEqual([]);
    expect(warnings({ ...base, REPLICAS: '1' })).toEqual([]);
  });
});
