import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { MiniAppIndex } from '../../src/contract/mini-app.types';
import { checkPlatformMetadata } from '../../src/publishing/platform-metadata';
import { createTestApp } from '../support/app.factory';
import { PUBLISHING_FIXTURES, TIP_RECIPIENT } from '../fixtures/published-fixtures.fixture';
import { sdkRefusal } from '../fixtures/sherry-sdk/create-metadata';
import { SDK_SOURCE } from '../fixtures/sherry-sdk/sdk-source';

type Document = Record<string, unknown> & { actions: Record<string, unknown>[] };

/** Every document an app publishes: each mini-app's, then each action path's, by its path. */
async function publishedDocuments(app: NestFastifyApplication): Promise<Map<string, Document>> {
  const get = async (url: string): Promise<Document> => {
    const answer = await app.inject({ method: 'GET', url });
    expect({ url, status: answer.statusCode }).toEqual({ url, status: 200 });
    return answer.json<Document>();
  };
  const index = await get('/api/metadata');
  const { baseUrl, miniApps } = index as unknown as MiniAppIndex;
  const urls = miniApps.flatMap((miniApp) => [
    miniApp.metadataUrl.slice(baseUrl.length),
    ...miniApp.actionPaths,
  ]);
  const documents = new Map<string, Document>();
  for (const url of urls) documents.set(url, await get(url));
  return documents;
}

/**
 * Issue 33: every document the service publishes, for the shipped actions and for every fixture
 * that boots, goes through a port of the platform SDK's own createMetadata (its validators, read
 * from sherry-sdk's source at the version below), not only through the kit's reading of its
 * rules. A refusal there refuses the whole mini-app on the platform.
 */
describe(`Publishing: the SDK's createMetadata (port of ${SDK_SOURCE.repository} ${SDK_SOURCE.version}) on every published document`, () => {
  it.each(PUBLISHING_FIXTURES)('%s', async (_, options) => {
    const app = await createTestApp(options);
    try {
      const documents = await publishedDocuments(app);
      expect(documents.size).toBeGreaterThan(0);
      for (const [url, document] of documents) {
        expect({ url, refusal: sdkRefusal(document) }).toEqual({ url, refusal: undefined });
        expect({ url, problems: checkPlatformMetadata(document) }).toEqual({ url, problems: [] });
      }
    } finally {
      await app.close();
    }
  });

  it('the shipped tip is a transfer whose amount is a radio, under the SDK’s field name', async () => {
    const app = await createTestApp({ env: { TIP_RECIPIENT } });
    try {
      const wallet = (await publishedDocuments(app)).get('/api/mini-apps/wallet')!;
      const tip = wallet.actions.find((action) => action.type === 'transfer');
      expect(tip).toMatchObject({
        to: TIP_RECIPIENT,
        amountConfig: { type: 'radio', options: expect.arrayContaining([]) },
      });
      expect(tip?.amountConfig).not.toHaveProperty('inputType');
      expect(sdkRefusal(wallet)).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
