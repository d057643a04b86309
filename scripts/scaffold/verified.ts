const APP_FACTORY = "import { createTestApp, postJson } from '../support/app.factory';";

/**
 * `--verified`: the action declares `user: 'verified'` (docs/verified-users.md), and its e2e
 * spec calls it signed in (a session of the app, as the conformance kit does), so the generated
 * tests pass as they are. Changes the generated files in place; false when they are not the
 * shape it knows (nothing changed).
 */
export function asVerified(files: Record<string, string>, kebab: string): boolean {
  const actionFile = `src/actions/${kebab}/${kebab}.action.ts`;
  const specFile = `test/actions/${kebab}.e2e-spec.ts`;
  const path = `  path: '/api/${kebab}',\n`;
  const action = files[actionFile];
  const spec = files[specFile];
  if (!action?.includes(path) || !spec?.includes(APP_FACTORY)) return false;
  files[actionFile] = action.replace(path, `${path}  user: 'verified',\n`);
  files[specFile] = spec.replace(
    APP_FACTORY,
    `import { createTestApp, postJson as post } from '../support/app.factory';
import { sessionHeaders } from '../../src/testing';

/**
 * Every call of this spec is signed in (the action declares user: 'verified'): as the user it
 * names in x-user-address, else as the conformance kit's user.
 */
const postJson = async <T = Record<string, unknown>>(
  ...[app, url, payload, headers = {}]: Parameters<typeof post>
): ReturnType<typeof post<T>> =>
  post<T>(app, url, payload, {
    ...(await sessionHeaders(app, headers['x-user-address'])),
    ...headers,
  });`,
  );
  return true;
}
