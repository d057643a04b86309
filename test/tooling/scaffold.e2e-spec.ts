import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
/**
 * The suites that read every action the app declares (or publishes): each must pass, unedited,
 * with a team's actions of every variant beside the shipped ones. Found by running every suite
 * of src/, test/kit, test/publishing, test/tooling and test/fuzz in such a copy; kept to those
 * that enumerate, so the proof costs minutes, not a second `npm test`.
 */
const ENUMERATING = [
  'src/layers.spec.ts',
  'src/kit/import-root.spec.ts',
  'src/config/config-docs.spec.ts',
  'test/tooling/typed-client.e2e-spec.ts',
  'test/tooling/check.e2e-spec.ts',
  'test/publishing/openapi.e2e-spec.ts',
  'test/publishing/mini-apps.e2e-spec.ts',
  'test/publishing/sdk-validator.e2e-spec.ts',
  'test/kit/declared-actions.e2e-spec.ts',
  'test/kit/unsupported-chains.e2e-spec.ts',
  'test/fuzz/fuzz.e2e-spec.ts',
  'test/actions/declared-round-trips.e2e-spec.ts',
];
/** The project's Jest configuration, its TypeScript transpiled without a second type check. */
const TRANSPILED_CONFIG = `const config = require('./jest.config.js');
const transpiled = ['ts-jest', { tsconfig: { isolatedModules: true } }];
module.exports = {
  ...config,
  projects: config.projects.map((project) => ({
    ...project,
    transform: { ...project.transform, '^.+\\\\.ts$': transpiled },
  })),
};
`;
/** The fuzz suite must meet every action; its depth is the main run's (FUZZ_RUNS, docs/testing.md). */
const FUZZ = { FUZZ_RUNS: '20' };
/** What a team's checkout holds besides node_modules, which the copy links to. */
const COPIED = [
  'src',
  'test',
  'scripts',
  'docs',
  'package.json',
  '.prettierrc',
  'eslint.config.mjs',
];
const COPIED_CONFIG = ['tsconfig.json', 'tsconfig.build.json', 'jest.config.js'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command in the copy to its end (its exit event), collecting what it prints. */
function run(
  cwd: string,
  command: string,
  args: readonly string[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', ...extraEnv };
  delete env.JEST_WORKER_ID;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const newAction = (cwd: string, ...args: string[]): Promise<Run> =>
  run(cwd, 'npm', ['run', '--silent', 'new:action', '--', ...args]);

/** Exit 0, or the output that says why not. */
function expectSuccess({ code, stdout, stderr }: Run): void {
  expect({ code, output: code === 0 ? '' : `${stdout}\n${stderr}` }).toEqual({
    code: 0,
    output: '',
  });
}

/** Every file under the project's own folders, with a digest of its content. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const top of ['src', 'test', 'scripts']) {
    for (const file of readdirSync(join(dir, top), { recursive: true, encoding: 'utf8' })) {
      const path = join(dir, top, file);
      try {
        files[`${top}/${file}`] = createHash('sha256').update(readFileSync(path)).digest('hex');
      } catch {
        files[`${top}/${file}`] = 'directory';
      }
    }
  }
  return files;
}

describe('npm run new:action (in a copy of the project)', () => {
  let dir: string;
  let before: Record<string, string>;
  const read = (file: string): string => readFileSync(join(dir, file), 'utf8');

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'scaffold-'));
    for (const entry of [...COPIED, ...COPIED_CONFIG]) {
      cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
    }
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'), 'dir');
    before = snapshot(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a malformed, taken or reserved name with a message saying why, and writes nothing', async () => {
    const refused: [string[], RegExp][] = [
      [['Greeting'], /"Greeting" is not kebab-case/],
      [['hello_world'], /"hello_world" is not kebab-case/],
      [['2fa'], /"2fa" is not kebab-case/],
      [['calculator'], /"calculator" is taken: src\/actions\/calculator already exists/],
      [['index'], /"index" is taken: src\/actions\/index\.ts already exists/],
      [['kit-http'], /"kit-http" is taken: test\/kit\/kit-http\.e2e-spec\.ts already exists/],
      [['metadata'], /\/api\/metadata is a route the service answers itself/],
      [['fresh', '--mini-app', 'Tools'], /mini-app id "Tools" must be lower-case/],
      [['fresh', '--mode', 'mint'], /--mode must be data or transaction, not "mint"/],
      [['fresh', '--chain', '--mode', 'transaction'], /--chain is a data-mode example/],
      [['fresh', '--spend'], /--spend is a transaction-mode example/],
      [['fresh', '--transfer'], /--transfer is a transaction-mode example/],
      [['fresh', '--chain', '--spend'], /--chain and --spend are different examples/],
      [
        ['fresh', '--mode', 'transaction', '--spend', '--transfer'],
        /--spend and --transfer are different examples/,
      ],
      [[], /give exactly one action name \(got 0\)/],
    ];
    const runs = await Promise.all(refused.map(([args]) => newAction(dir, ...args)));
    runs.forEach(({ code, stdout, stderr }, i) => {
      expect({ code: code !== 0, stdout, stderr }).toEqual({
        code: true,
        stdout: '',
        stderr: expect.stringMatching(refused[i][1]),
      });
    });
    expect(snapshot(dir)).toEqual(before);
    // 15 ts-node starts at once on 2 cores: about 20 s idle, 150 s with other work on the machine.
  }, 420_000);

  it('prints its usage and every option with --help, and exits 0', async () => {
    const help = await newAction(dir, '--help');
    expect({ code: help.code, stderr: help.stderr }).toEqual({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^usage: npm run new:action -- <name>/);
    for (const option of ['--mode', '--chain', '--spend', '--transfer', '--verified', '--mini-app'])
      expect(help.stdout).toContain(option);
    expect(snapshot(dir)).toEqual(before);
  }, 120_000);

  it('writes a data action in a new mini-app, a transaction action joining tools, and the chain, spend, verified and transfer examples', async () => {
    const data = await newAction(dir, 'hello-note');
    expectSuccess(data);
    expect(data.stdout).toContain('Wrote a data-mode action answering POST /api/hello-note');
    expect(data.stdout).toContain('new mini-app "hello-note"');
    const transaction = await newAction(
      dir,
      'tip-jar',
      '--mode',
      'transaction',
      '--mini-app',
      'tools',
    );
    expectSuccess(transaction);
    expect(transaction.stdout).toContain('joins the mini-app "tools" (TOOLS_MINI_APP)');
    // The chain-reading data example and the ERC-20 spending transaction example.
    const chain = await newAction(dir, 'chain-note', '--chain', '--mini-app', 'hello-note');
    expectSuccess(chain);
    expect(chain.stdout).toContain(
      'Wrote a data-mode action reading the chain (safe read, result cache) answering POST /api/chain-note',
    );
    const spend = await newAction(
      dir,
      'pay-note',
      '--mode',
      'transaction',
      '--spend',
      '--mini-app',
      'hello-note',
    );
    expectSuccess(spend);
    expect(spend.stdout).toContain('spending an ERC-20 through a contract');
    // A data action only a signed-in user may call, beside the shipped one that needs it too.
    const verified = await newAction(dir, 'secret-note', '--verified', '--mini-app', 'account');
    expectSuccess(verified);
    expect(verified.stdout).toContain('for a verified (signed-in) user only');
    // The signed-in user's own balance: no parameter at all (the client writes no empty interface).
    const mine = await newAction(dir, 'my-note', '--chain', '--verified', '--mini-app', 'account');
    expectSuccess(mine);
    expect(mine.stdout).toContain(
      'Wrote a data-mode action reading the chain (safe read, result cache), for a verified (signed-in) user only, answering POST /api/my-note',
    );
    // A plain ERC-20 transfer from the user, with a message: no spender, no approval.
    const transfer = await newAction(
      dir,
      'gift-note',
      '--mode',
      'transaction',
      '--transfer',
      '--mini-app',
      'collectibles',
    );
    expectSuccess(transfer);
    expect(transfer.stdout).toContain('transferring an ERC-20 from the user');
    expect(read('src/actions/chain-note/chain-note.service.ts')).toContain('this.chains.read(');
    expect(read('src/actions/pay-note/pay-note.service.ts')).toContain('spend: {');
    expect(read('src/actions/secret-note/secret-note.action.ts')).toContain("user: 'verified'");
    const myNote = read('src/actions/my-note/my-note.action.ts');
    expect(myNote).toContain("user: 'verified'");
    expect(myNote).not.toMatch(/^\s+params:/m);
    const gift = read('src/actions/gift-note/gift-note.service.ts');
    expect(gift).toContain("functionName: 'transfer'");
    // The balance checked, nothing approved: a spend without a spender.
    expect(gift).toMatch(
      /spend: \{ token: \{ \.\.\.sent, address: sent\.address \}, amount: value \}/,
    );

    const added = Object.keys(snapshot(dir)).filter((file) => !(file in before));
    expect(added.sort()).toEqual(
      [
        'src/actions/hello-note',
        'src/actions/tip-jar',
        'src/assets/icons/hello-note.svg',
        'test/actions/hello-note.e2e-spec.ts',
        'test/actions/tip-jar.e2e-spec.ts',
        'src/actions/chain-note',
        'src/actions/pay-note',
        'test/actions/chain-note.e2e-spec.ts',
        'test/actions/pay-note.e2e-spec.ts',
        'src/actions/secret-note',
        'test/actions/secret-note.e2e-spec.ts',
        'src/actions/my-note',
        'test/actions/my-note.e2e-spec.ts',
        'src/actions/gift-note',
        'test/actions/gift-note.e2e-spec.ts',
        ...['action', 'controller', 'module', 'service', 'service.spec'].flatMap((kind) =>
          [
            'hello-note',
            'tip-jar',
            'chain-note',
            'pay-note',
            'secret-note',
            'my-note',
            'gift-note',
          ].map((action) => `src/actions/${action}/${action}.${kind}.ts`),
        ),
      ].sort(),
    );
    const printed = [data, transaction, chain, spend, verified, mine, transfer]
      .map((run) => run.stdout)
      .join('');
    for (const file of added.filter((f) => f.endsWith('.ts'))) {
      expect(printed).toContain(`created  ${file}`);
    }
    expect(read('src/actions/index.ts')).toMatch(
      /\n {2}HelloNoteModule,\n {2}TipJarModule,\n {2}ChainNoteModule,\n {2}PayNoteModule,\n {2}SecretNoteModule,\n {2}MyNoteModule,\n {2}GiftNoteModule,\n\];/,
    );
    expect(read('src/actions/mini-apps.ts')).toMatch(/\n {2}HELLO_NOTE_MINI_APP,\n\];/);
    expect(read('src/actions/tip-jar/tip-jar.action.ts')).toContain('miniApp: TOOLS_MINI_APP');
  }, 420_000);

  it('refuses to add a fifth action to a mini-app, naming those with room', async () => {
    const written = snapshot(dir);
    const full = await newAction(dir, 'one-more', '--mini-app', 'tools');
    expect(full.code).toBe(1);
    expect(full.stderr).toContain(
      'mini-app "tools" already has 4 actions (/api/calculator, /api/tip-jar, /api/user-lookup, /api/weather)',
    );
    // Every mini-app with room, a team's own included (the copy may hold more than ours).
    const room = /one that has room \(([^)]*)\)/.exec(full.stderr)?.[1].split(', ');
    expect(room).toEqual(expect.arrayContaining(['wallet', 'collectibles', 'hello-note']));
    expect(room).not.toContain('tools');
    expect(snapshot(dir)).toEqual(written);
  }, 120_000);

  it('generates code that typechecks, lints and passes its own specs and every suite that enumerates actions', async () => {
    const node = (tool: string, ...args: string[]): Promise<Run> =>
      run(dir, process.execPath, [join(dir, 'node_modules', tool), ...args], FUZZ);
    // The typed client of every action, the new ones included, as lint and typecheck write it.
    expectSuccess(await node('ts-node/dist/bin.js', '--transpile-only', 'scripts/client.ts'));
    expect(read('src/client/generated/actions.ts')).toContain(
      'export type MyNoteValues = Record<string, never>;',
    );
    expectSuccess(await node('typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json'));
    const generated = [
      'src/actions/hello-note',
      'src/actions/tip-jar',
      'src/actions/chain-note',
      'src/actions/pay-note',
      'src/actions/secret-note',
      'src/actions/my-note',
      'src/actions/gift-note',
      'src/client/generated/actions.ts',
      'test/actions/secret-note.e2e-spec.ts',
      'test/actions/my-note.e2e-spec.ts',
      'test/actions/gift-note.e2e-spec.ts',
      'test/actions/chain-note.e2e-spec.ts',
      'test/actions/pay-note.e2e-spec.ts',
      'src/actions/index.ts',
      'src/actions/mini-apps.ts',
      'test/actions/hello-note.e2e-spec.ts',
      'test/actions/tip-jar.e2e-spec.ts',
    ];
    expectSuccess(await node('eslint/bin/eslint.js', '--max-warnings=0', ...generated));

    const report = join(dir, 'jest-report.json');
    const actions = [
      'hello-note',
      'tip-jar',
      'chain-note',
      'pay-note',
      'secret-note',
      'my-note',
      'gift-note',
    ];
    const specs = actions.flatMap((a) => [`src/actions/${a}`, `test/actions/${a}`]);
    // One run, one worker: the copy's suites share CI's cores with the rest of npm test. The
    // types were checked above (tsc, the whole copy): ts-jest only transpiles here, as ts-node
    // does for npm run dev, instead of type-checking every file again in every suite.
    writeFileSync(join(dir, 'jest.transpiled.config.js'), TRANSPILED_CONFIG);
    const jest = await node(
      'jest/bin/jest.js',
      '--config=jest.transpiled.config.js',
      '--ci',
      '--runInBand',
      '--json',
      `--outputFile=${report}`,
      ...specs,
      ...ENUMERATING,
    );
    expectSuccess(jest);
    const results = JSON.parse(read('jest-report.json')) as {
      numTotalTestSuites: number;
      numFailedTests: number;
      testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[];
    };
    expect([results.numTotalTestSuites, results.numFailedTests]).toEqual([
      2 * actions.length + ENUMERATING.length,
      0,
    ]);
    const ran = results.testResults.map((suite) => relative(realpathSync(dir), suite.name));
    expect(ran).toEqual(expect.arrayContaining(ENUMERATING));
    const names = results.testResults.flatMap((suite) => suite.assertionResults);
    // The generated specs' own tests ran too: the chain's answers signed, sent and landed.
    expect(names.map((t) => [t.fullName, t.status])).toEqual(
      expect.arrayContaining([
        [expect.stringContaining('then the same from the cache'), 'passed'],
        [expect.stringContaining('answers the approval first, then the payment'), 'passed'],
        [expect.stringContaining('answers a transfer that lands when the user signs'), 'passed'],
        [expect.stringContaining("answers the signed-in user's balance"), 'passed'],
        [expect.stringContaining('refuses a caller who only claims an address'), 'passed'],
        [expect.stringContaining('answers the transfer with its message'), 'passed'],
      ]),
    );
    for (const path of actions.map((a) => `/api/${a}`)) {
      const conformance = names.filter((t) =>
        t.fullName.includes(`${path} meets the dynamic action contract`),
      );
      expect(conformance.length).toBeGreaterThan(0);
      expect(conformance.every((t) => t.status === 'passed')).toBe(true);
      // Its blink (src/blinks) too, with no line of the scaffold about blinks.
      expect(conformance.filter((t) => t.fullName.includes('is served as a blink'))).toEqual([
        expect.objectContaining({ status: 'passed' }),
      ]);
    }
    // Seven actions, fourteen of their specs and every enumerating suite in one run: 15 minutes
    // on a 2-core machine busy with other work (measured, issue 46), far less when idle.
  }, 1_500_000);
});
