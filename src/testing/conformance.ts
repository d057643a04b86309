import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ActionSample } from '../core/action.types';
import { declaredActions, type DeclaredAction } from './declared-actions';
import { checkPlatformMetadata } from './platform-metadata';

export interface ConformanceOptions {
  /** Requests answered with success; by default the declaration's `samples`. */
  valid?: readonly ActionSample[];
}

function declared(app: NestFastifyApplication, path: string): DeclaredAction {
  const found = declaredActions(app).find(({ action }) => action.path === path);
  if (!found) throw new Error(`no action is declared on ${path}`);
  return found;
}

/**
 * Every contract rule one action could break, as a Jest `describe` block: call it from the
 * action's e2e spec, after the `beforeAll` that builds the app (hence the getter).
 *
 * SKELETON: the full kit (CORS, OPTIONS, generated bad values, error shapes, rate-limit shape)
 * is being written; this first cut checks the metadata and the samples.
 */
export function describeActionConformance(
  app: () => NestFastifyApplication,
  path: string,
  options: ConformanceOptions = {},
): void {
  describe(`${path} meets the dynamic action contract`, () => {
    it('publishes a one-action document the platform accepts', async () => {
      const response = await app().inject({ method: 'GET', url: path });
      expect(response.statusCode).toBe(200);
      expect(checkPlatformMetadata(response.json())).toEqual([]);
    });

    it('answers each valid sample with success in its mode', async () => {
      const { declaration } = declared(app(), path);
      const samples = options.valid ?? declaration.samples ?? [];
      for (const sample of samples) {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (sample.userAddress) headers['x-user-address'] = sample.userAddress;
        if (sample.chainId !== undefined) headers['x-chain-id'] = String(sample.chainId);
        const response = await app().inject({
          method: 'POST',
          url: path,
          headers,
          payload: JSON.stringify({ params: sample.params }),
        });
        const body = response.json<Record<string, unknown>>();
        expect({ status: response.statusCode, body }).toMatchObject({ status: 200 });
        if (declaration.responseType === 'data') expect(body.success).toBe(true);
        else expect(typeof body.serializedTransaction).toBe('string');
      }
    });
  });
}
