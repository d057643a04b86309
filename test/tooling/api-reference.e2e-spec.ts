import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JSONOutput } from 'typedoc';

/**
 * The API reference (docs/api-reference.md): `npm run docs:api`'s TypeDoc run, written to a
 * temporary folder as HTML and JSON. Every public name of its entry points carries a doc comment,
 * and the names a newcomer had to read source for are on their pages with signature and comment.
 */
const ROOT = join(__dirname, '..', '..');

type Reflection = JSONOutput.DeclarationReflection;

/** TypeDoc's kinds (ReflectionKind, a runtime enum of an ES module Jest cannot load here). */
const KIND = { Class: 128, Interface: 256, Constructor: 512, Reference: 4194304 } as const;
const kindOf = (reflection: Reflection): number => Number(reflection.kind);

const hasText = (comment: JSONOutput.Comment | undefined): boolean =>
  (comment?.summary ?? []).some((part) => part.text.trim() !== '');

/** A comment on the name itself, on one of its call signatures or on its accessor. */
const documented = (reflection: Reflection): boolean =>
  hasText(reflection.comment) ||
  (reflection.signatures ?? []).some((signature) => hasText(signature.comment)) ||
  hasText(reflection.getSignature?.comment) ||
  hasText(reflection.setSignature?.comment);

/** Declared in this repository, not in a package (a member a class inherits from Nest's, say). */
const ours = (reflection: Reflection): boolean =>
  (reflection.sources ?? []).some((source) => !source.fileName.includes('node_modules/'));

/** A class's members a caller uses: its own public methods, properties and accessors. */
const publicMembers = (owner: Reflection): Reflection[] =>
  kindOf(owner) !== KIND.Class
    ? []
    : (owner.children ?? []).filter(
        (member) =>
          kindOf(member) !== KIND.Constructor &&
          !member.flags.isPrivate &&
          !member.flags.isProtected &&
          member.inheritedFrom === undefined &&
          ours(member),
      );

/**
 * `module: Name` (or `module: Class.member`) for each public name without a doc comment: every
 * export of an entry point, and the public members of its classes. A re-export (TypeDoc's
 * Reference) is documented where it is declared.
 */
function undocumentedNames(project: JSONOutput.ProjectReflection): string[] {
  const missing: string[] = [];
  for (const entry of project.children ?? []) {
    for (const name of entry.children ?? []) {
      if (kindOf(name) === KIND.Reference || !ours(name)) continue;
      if (!documented(name)) missing.push(`${entry.name}: ${name.name}`);
      for (const member of publicMembers(name)) {
        if (!documented(member)) missing.push(`${entry.name}: ${name.name}.${member.name}`);
      }
    }
  }
  return missing;
}

/** An HTML page's text as a reader sees it: tags dropped, entities decoded, spaces collapsed. */
const textOf = (html: string): string =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

/** The plain text of a comment's summary, as TypeDoc renders it (code spans without backticks). */
const summaryText = (comment: JSONOutput.Comment | undefined): string =>
  (comment?.summary ?? [])
    .map((part) => (part.kind === 'code' ? part.text.replace(/^`+|`+$/g, '') : part.text))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();

describe('undocumentedNames (the rule the reference is held to)', () => {
  const source = { fileName: 'src/evm/chains/chain-registry.ts', line: 1, character: 0, url: '' };
  const project = {
    id: 0,
    name: 'fixture',
    variant: 'project',
    kind: 1,
    flags: {},
    children: [
      {
        id: 1,
        name: 'src/evm',
        variant: 'declaration',
        kind: 2,
        flags: {},
        children: [
          {
            id: 2,
            name: 'ChainRegistry',
            variant: 'declaration',
            kind: KIND.Class,
            flags: {},
            sources: [source],
            comment: { summary: [{ kind: 'text', text: 'Resolves chains.' }] },
            children: [
              {
                id: 3,
                name: 'get',
                variant: 'declaration',
                kind: 2048,
                flags: {},
                sources: [source],
              },
              {
                id: 4,
                name: 'config',
                variant: 'declaration',
                kind: 1024,
                flags: { isPrivate: true },
                sources: [source],
              },
            ],
          },
          {
            id: 5,
            name: 'TokenInfo',
            variant: 'declaration',
            kind: KIND.Interface,
            flags: {},
            sources: [source],
          },
          {
            id: 6,
            name: 'ChainRpc',
            variant: 'declaration',
            kind: KIND.Reference,
            flags: {},
            target: 2,
          },
        ],
      },
    ],
  } as unknown as JSONOutput.ProjectReflection;

  it('names an undocumented export and public member, not a private one or a re-export', () => {
    expect(undocumentedNames(project)).toEqual([
      'src/evm: ChainRegistry.get',
      'src/evm: TokenInfo',
    ]);
  });
});

describe('the API reference (npm run docs:api)', () => {
  const out = mkdtempSync(join(tmpdir(), 'api-reference-'));
  let project: JSONOutput.ProjectReflection;
  const page = (file: string): string => textOf(readFileSync(join(out, 'html', file), 'utf8'));

  beforeAll(async () => {
    // typedoc.json as `npm run docs:api` reads it; only the output goes elsewhere.
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc'),
        '--out',
        join(out, 'html'),
        '--json',
        join(out, 'api.json'),
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number | null];
    if (code !== 0) throw new Error(`typedoc exited ${code}:\n${output}`);
    project = JSON.parse(
      readFileSync(join(out, 'api.json'), 'utf8'),
    ) as JSONOutput.ProjectReflection;
  }, 120_000);

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('documents every public name of its entry points', () => {
    expect(undocumentedNames(project)).toEqual([]);
  });

  it('has the entry points an action, a client and a spec import from', () => {
    const modules = (project.children ?? []).map((entry) => entry.name);
    expect(modules).toEqual(
      expect.arrayContaining([
        'src/kit',
        'src/evm',
        'src/outbound',
        'src/outcomes',
        'src/client',
        'src/testing',
      ]),
    );
    expect(modules.some((name) => name.startsWith('src/config/'))).toBe(true);
    expect(modules).toContain('test/support/app.factory');
  });

  /** A name's comment, from TypeDoc's JSON, on the name or its first signature. */
  const commentOf = (module: string, name: string, member?: string): string => {
    const entry = (project.children ?? []).find((child) => child.name === module);
    let reflection = entry?.children?.find((child) => child.name === name);
    if (member) reflection = reflection?.children?.find((child) => child.name === member);
    if (!reflection) throw new Error(`${module}: ${name} is not in the reference`);
    return summaryText(reflection.comment ?? reflection.signatures?.[0]?.comment);
  };

  it.each([
    [
      'functions/src_evm.defaultTokenOptions.html',
      'src/evm',
      'defaultTokenOptions',
      undefined,
      'defaultTokenOptions(chainIds: readonly number[], options: { native: boolean }): { label: string; value: string }[]',
    ],
    [
      'classes/src_evm.ChainRegistry.html',
      'src/evm',
      'ChainRegistry',
      'token',
      'token(chain: ChainInfo, symbol: string, param: string): TokenInfo',
    ],
    [
      'interfaces/src_evm.TokenInfo.html',
      'src/evm',
      'TokenInfo',
      'address',
      'address?: `0x${string}`',
    ],
    [
      'functions/test_support_app.factory.createTestApp.html',
      'test/support/app.factory',
      'createTestApp',
      undefined,
      'createTestApp(options?: TestAppOptions): Promise<NestFastifyApplication<RawServerDefault>>',
    ],
    // What a newcomer's specs and scripts import beside the kit (issue 46).
    [
      'functions/src_client.signIn.html',
      'src/client',
      'signIn',
      undefined,
      'signIn(wallet: SignInWallet | SignInAccount, options: SignInOptions): Promise<SignInResult>',
    ],
    [
      'interfaces/src_client.SignInWallet.html',
      'src/client',
      'SignInWallet',
      'signMessage',
      'signMessage: (message: string) => Promise<string>',
    ],
    [
      'functions/src_testing.sessionHeaders.html',
      'src/testing',
      'sessionHeaders',
      undefined,
      'sessionHeaders(app: NestFastifyApplication, address?: string, chainId?: number): Promise<{ authorization: string }>',
    ],
    [
      'interfaces/src_testing.TestChain.html',
      'src/testing',
      'TestChain',
      'fixture',
      'fixture: DexFixture',
    ],
  ])('%s shows the signature and the comment', (file, module, name, member, signature) => {
    const text = page(file);
    // TypeDoc breaks a long signature over lines, with a trailing comma: compared without either.
    const flat = (words: string): string => words.replace(/\s+/g, '').replace(/,\)/g, ')');
    expect(flat(text)).toContain(flat(signature));
    const comment = commentOf(module, name);
    expect(comment.length).toBeGreaterThan(20);
    expect(text).toContain(comment);
    if (member === undefined) return;
    const memberComment = commentOf(module, name, member);
    expect(memberComment).not.toBe('');
    expect(text).toContain(memberComment);
  });
});
