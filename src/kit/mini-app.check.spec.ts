import type { ActionDeclaration } from '../contract/action.types';
import { checkMiniApp, checkMiniApps, miniAppsNamedBy } from './mini-app.check';
import type { MiniAppDeclaration } from '../contract/mini-app.types';

const ICONS = new Set(['mini-app.svg', 'tools.svg']);
const iconExists = (file: string): boolean => ICONS.has(file);

const app = (over: Partial<MiniAppDeclaration> = {}): MiniAppDeclaration => ({
  id: 'tools',
  title: 'Tools',
  description: 'Handy tools',
  ...over,
});

const action = (path: string, miniApp: MiniAppDeclaration): ActionDeclaration => ({
  label: path.slice(5),
  path,
  chains: { source: 43113 },
  miniApp,
});

describe('checkMiniApp', () => {
  it('accepts a well-formed mini-app, its icon a served file or an http(s) URL', () => {
    expect(checkMiniApp(app(), iconExists)).toEqual([]);
    expect(checkMiniApp(app({ id: 'my-app-2', icon: 'tools.svg' }), iconExists)).toEqual([]);
    expect(checkMiniApp(app({ icon: 'https://cdn.example.com/i.png' }), iconExists)).toEqual([]);
    expect(checkMiniApp(app({ title: 't'.repeat(1000) }), iconExists)).toEqual([]);
    expect(checkMiniApp(app({ description: 'd'.repeat(2000) }), iconExists)).toEqual([]);
  });

  it.each<[string, Partial<MiniAppDeclaration>, string]>([
    ['an upper-case id', { id: 'Tools' }, 'id must be lower-case letters'],
    ['an empty id', { id: '' }, 'id must be lower-case letters'],
    ['a double hyphen', { id: 'my--app' }, 'id must be lower-case letters'],
    ['a trailing hyphen', { id: 'app-' }, 'id must be lower-case letters'],
    ['an id over 64 characters', { id: 'a'.repeat(65) }, 'at most 64 characters'],
    ['an id ending in -icon', { id: 'my-icon' }, 'may not end in "-icon"'],
    ['an empty title', { title: '' }, 'has no title'],
    ['a blank title', { title: '   ' }, 'has no title'],
    [
      'a title over 1000',
      { title: 't'.repeat(1001) },
      "title is 1001 characters long, over the platform's 1000",
    ],
    ['no description', { description: '' }, 'has no description'],
    ['a description over 2000', { description: 'd'.repeat(2001) }, "over the platform's 2000"],
    [
      'a missing icon file',
      { icon: 'nope.svg' },
      'icon "nope.svg" is not an image of src/assets/icons',
    ],
    ['a path as icon', { icon: '../main.js' }, 'is not an image of src/assets/icons'],
    ['an ftp icon', { icon: 'ftp://cdn.example.com/i.png' }, 'icon is not an absolute http(s) URL'],
    ['an icon URL over 2000', { icon: `https://a.example/${'i'.repeat(1990)}` }, 'of at most 2000'],
  ])('reports %s', (_, over, problem) => {
    const problems = checkMiniApp(app(over), iconExists);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(problem);
  });

  it('checks the default icon when none is declared', () => {
    expect(checkMiniApp(app(), () => false)).toEqual([
      'icon "mini-app.svg" is not an image of src/assets/icons (svg, png, webp, jpg)',
    ]);
  });
});

describe('checkMiniApps', () => {
  const tools = app();
  const wallet = app({ id: 'wallet', title: 'Wallet' });

  it('accepts 1 to 4 actions per registered mini-app', () => {
    const actions = [
      ...['/api/a', '/api/b', '/api/c', '/api/d'].map((p) => action(p, tools)),
      action('/api/e', wallet),
    ];
    expect(checkMiniApps(actions, { miniApps: [tools, wallet], iconExists })).toEqual([]);
  });

  it('names each grouping problem: unregistered, unnamed, empty, crowded, twin ids', () => {
    const stray = app({ id: 'stray' });
    const twin = app({ id: 'tools', title: 'Other tools' });
    const crowd = ['/api/1', '/api/2', '/api/3', '/api/4', '/api/5'];
    const actions = [
      ...crowd.map((p) => action(p, tools)),
      action('/api/stray', stray),
      { ...action('/api/none', tools), miniApp: undefined } as unknown as ActionDeclaration,
      action('/api/twin', twin),
    ];
    expect(checkMiniApps(actions, { miniApps: [tools, wallet, twin], iconExists })).toEqual([
      'mini-app "tools": another mini-app has the same id',
      'action "stray" (/api/stray): names mini-app "stray", which is not registered',
      'action "none" (/api/none): names no mini-app (set miniApp)',
      'mini-app "tools": has 5 actions (/api/1, /api/2, /api/3, /api/4, /api/5), the platform allows at most 4',
      'mini-app "wallet": has no action',
    ]);
  });

  it('prefixes a mini-app field problem with its id', () => {
    expect(
      checkMiniApps([action('/api/a', app({ title: '' }))], {
        miniApps: [app({ title: '' })],
        iconExists,
      }),
    ).toContain('mini-app "tools": has no title');
  });
});

describe('miniAppsNamedBy', () => {
  it('lists each mini-app the actions name once, in order, skipping actions that name none', () => {
    const tools = app();
    const wallet = app({ id: 'wallet' });
    const none = { ...action('/api/x', tools), miniApp: undefined } as unknown as ActionDeclaration;
    const named = miniAppsNamedBy([
      action('/api/a', wallet),
      none,
      action('/api/b', tools),
      action('/api/c', wallet),
    ]);
    expect(named).toEqual([wallet, tools]);
  });
});
