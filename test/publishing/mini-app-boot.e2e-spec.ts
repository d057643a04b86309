import { createTestApp } from '../support/app.factory';
import { BAD_GROUPINGS, OneMiniAppModule } from '../fixtures/bad-mini-apps.fixture';

describe('Mini-apps: the grouping is checked at boot', () => {
  it.each(BAD_GROUPINGS.map((bad) => [bad.what, bad] as const))(
    'refuses to boot with %s, naming it',
    async (_, { actions, miniApps, message }) => {
      await expect(createTestApp({ actions, miniApps })).rejects.toThrow(message);
    },
  );

  it('lists every grouping problem in one error', async () => {
    const [stray, , crowded] = BAD_GROUPINGS;
    const boot = createTestApp({
      actions: [...stray.actions, ...crowded.actions],
      miniApps: [...(stray.miniApps ?? [])],
    });
    await expect(boot).rejects.toThrow(/^Invalid action declarations:\n/);
    await expect(boot).rejects.toThrow(/names mini-app "stray"[\s\S]*names mini-app "crowded"/);
  });

  it('refuses the shipped actions when a shipped mini-app is left unregistered', async () => {
    await expect(createTestApp({ miniApps: [] })).rejects.toThrow(
      /action "Calculate" \(\/api\/calculator\): names mini-app "tools", which is not registered/,
    );
  });

  it('boots the shipped service and a well-formed single mini-app', async () => {
    for (const options of [{}, { actions: [OneMiniAppModule] }]) {
      const app = await createTestApp(options);
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      await app.close();
    }
  });
});

describe('Mini-apps: their configuration is checked at boot', () => {
  const boot = (env: Record<string, string>) => createTestApp({ actions: [OneMiniAppModule], env });

  it.each([
    [
      'MINI_APP_MY_APP_URL on ftp',
      { MINI_APP_MY_APP_URL: 'ftp://apps.example.com/x' },
      /MINI_APP_MY_APP_URL=ftp:\/\/apps\.example\.com\/<path>: must be an absolute http\(s\) URL of at most 2000/,
    ],
    [
      'a relative MINI_APP_MY_APP_URL',
      { MINI_APP_MY_APP_URL: '/relative' },
      /MINI_APP_MY_APP_URL=.*: must be an absolute http\(s\) URL/,
    ],
    [
      'MINI_APP_MY_APP_ICON_URL over 2000 characters',
      { MINI_APP_MY_APP_ICON_URL: `https://cdn.example.com/${'x'.repeat(2000)}` },
      /MINI_APP_MY_APP_ICON_URL=https:\/\/cdn\.example\.com\/<path>: must be/,
    ],
    [
      'METADATA_ICON_URL without a scheme',
      { METADATA_ICON_URL: 'icon.png' },
      /METADATA_ICON_URL=.*METADATA_ICON_URL must be a URL address/,
    ],
    [
      'METADATA_ICON_URL on ftp',
      { METADATA_ICON_URL: 'ftp://cdn.example.com/i.png' },
      /METADATA_ICON_URL=/,
    ],
    [
      'PUBLIC_BASE_URL on ftp',
      { PUBLIC_BASE_URL: 'ftp://actions.example.com' },
      /PUBLIC_BASE_URL=/,
    ],
  ])('refuses %s, naming the variable', async (_, env, message) => {
    await expect(boot(env)).rejects.toThrow(message);
  });

  it('refuses a MINI_APP_ variable that names no mini-app, listing the known ones', async () => {
    await expect(boot({ MINI_APP_MY_APQ_URL: 'https://apps.example.com' })).rejects.toThrow(
      'MINI_APP_MY_APQ_*: no mini-app has the id my-apq (mini-apps: MY_APP)',
    );
  });

  it('refuses a MINI_APP_ variable that is no setting', async () => {
    await expect(boot({ MINI_APP_MY_APP_ICON: 'https://cdn.example.com/i.png' })).rejects.toThrow(
      'MINI_APP_MY_APP_ICON: not a setting (MINI_APP_<ID>_URL or MINI_APP_<ID>_ICON_URL)',
    );
  });

  it('refuses a PUBLIC_BASE_URL that makes a published URL longer than the platform takes', async () => {
    const base = `https://actions.example.com/${'p'.repeat(1960)}`;
    await expect(boot({ PUBLIC_BASE_URL: base })).rejects.toThrow(
      /mini-app "my-app": a published URL is \d+ characters long, over the platform's 2000/,
    );
  });
});
