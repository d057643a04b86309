import type { ActionRegistry } from '../kit/action.registry';
import type { MiniAppDocuments } from '../publishing/mini-app-documents';
import { PlatformChecks } from './platform-checks';

const action = {
  type: 'dynamic' as const,
  label: 'Go',
  path: '/api/go',
  chains: { source: 43113 },
};
const document = {
  url: 'https://svc.example/api/mini-apps/good',
  icon: 'https://svc.example/icons/a.svg',
  title: 'Good',
  description: 'A mini-app',
  baseUrl: 'https://svc.example',
  actions: [action],
};

function checksOf(published: object): ReturnType<PlatformChecks['run']> {
  const registry = {
    miniApps: () => [{ miniApp: { id: 'good', title: 'Good' }, actions: [action] }],
  } as unknown as ActionRegistry;
  const documents = {
    miniApp: () => published,
    action: () => published,
  } as unknown as MiniAppDocuments;
  return new PlatformChecks(registry, documents).run('https://svc.example');
}

describe('PlatformChecks', () => {
  it('reports no problem for a document the platform accepts', () => {
    expect(checksOf(document)).toEqual([{ id: 'good', title: 'Good', problems: [] }]);
  });

  it("reports each rule broken, in the mini-app's document and in each action's", () => {
    const [check] = checksOf({ ...document, icon: 'ftp://svc.example/a.svg' });
    expect(check.problems).toHaveLength(2);
    expect(check.problems[0]).toMatch(/icon/);
    expect(check.problems[1]).toMatch(/^GET \/api\/go: .*icon/);
  });
});
