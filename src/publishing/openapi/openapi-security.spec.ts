import type { ActionDeclaration } from '../../contract/action.types';
import { defineAction, defineMiniApp } from '../../kit';
import { SESSION_SCHEME } from './action-path';
import { buildOpenApiDocument } from './openapi.builder';

const MINI_APP = defineMiniApp({
  id: 'spec',
  title: 'Spec',
  description: 'For the OpenAPI security spec',
  icon: 'tools.svg',
});
const base = { chains: { source: 43113 }, miniApp: MINI_APP, responseType: 'data' as const };
const verified = defineAction({ ...base, label: 'Mine', path: '/api/mine', user: 'verified' });
const open = defineAction({ ...base, label: 'Open', path: '/api/open' });

interface Built {
  paths: Record<string, { post: { security?: unknown; responses: Record<string, unknown> } }>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
}

describe('OpenAPI: the bearer scheme of verified actions', () => {
  const document = buildOpenApiDocument({
    title: 'T',
    description: 'D',
    actions: [verified, open] as ActionDeclaration[],
    miniApps: [MINI_APP],
  }) as unknown as Built;

  it('declares the session scheme once, as HTTP bearer', () => {
    expect(document.components.securitySchemes[SESSION_SCHEME]).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('requires it on the actions declared user: verified, with their 401, and only there', () => {
    const mine = document.paths['/api/mine'].post;
    expect(mine.security).toEqual([{ [SESSION_SCHEME]: [] }]);
    expect(Object.keys(mine.responses)).toContain('401');
    const other = document.paths['/api/open'].post;
    expect(other.security).toBeUndefined();
    expect(Object.keys(other.responses)).not.toContain('401');
  });
});
