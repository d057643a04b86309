import { loadMiniAppsConfig } from './mini-apps.config';

describe('loadMiniAppsConfig', () => {
  it('has no overrides by default, and ignores unrelated and empty variables', () => {
    const { overrides } = loadMiniAppsConfig({ PORT: '3000', MINI_APP_TOOLS_URL: '' });
    expect([...overrides]).toEqual([]);
  });

  it('reads each mini-app’s url and icon by its <ID>', () => {
    const { overrides } = loadMiniAppsConfig({
      MINI_APP_TOOLS_URL: 'https://tools.example.com/home',
      MINI_APP_TOOLS_ICON_URL: 'https://cdn.example.com/tools.png',
      MINI_APP_MY_WALLET_ICON_URL: 'http://localhost:8080/w.svg',
    });
    expect(Object.fromEntries(overrides)).toEqual({
      TOOLS: {
        url: 'https://tools.example.com/home',
        iconUrl: 'https://cdn.example.com/tools.png',
      },
      MY_WALLET: { iconUrl: 'http://localhost:8080/w.svg' },
    });
  });

  it.each([
    ['MINI_APP_TOOLS_URL', 'without a scheme', 'tools.example.com'],
    ['MINI_APP_TOOLS_URL', 'on ftp', 'ftp://tools.example.com/x'],
    ['MINI_APP_TOOLS_ICON_URL', 'on javascript:', 'javascript:alert(1)'],
    [
      'MINI_APP_TOOLS_ICON_URL',
      'over 2000 characters',
      `https://cdn.example.com/${'i'.repeat(1980)}`,
    ],
  ])('refuses %s %s, naming it without echoing the value whole', (name, _, value) => {
    let message = '';
    try {
      loadMiniAppsConfig({ [name]: value });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      new RegExp(`^Invalid configuration:\\n  - ${name}=.*: must be an absolute http\\(s\\) URL`),
    );
    expect(message).not.toContain('iiiiiiiiii');
  });

  it.each([['MINI_APP_TOOLS_ICON'], ['MINI_APP_URL'], ['MINI_APP_tools_URL']])(
    'refuses %s, which is no setting',
    (name) => {
      expect(() => loadMiniAppsConfig({ [name]: 'https://x.example.com' })).toThrow(
        `${name}: not a setting (MINI_APP_<ID>_URL or MINI_APP_<ID>_ICON_URL)`,
      );
    },
  );

  it('lists every problem at once', () => {
    expect(() =>
      loadMiniAppsConfig({ MINI_APP_A_URL: 'nope', MINI_APP_B_ICON_URL: 'nope' }),
    ).toThrow(/MINI_APP_A_URL=.*\n {2}- MINI_APP_B_ICON_URL=/);
  });
});
