import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { IsEthereumAddress, IsOptional } from 'class-validator';
import {
  CONFIG_PAGE,
  defaultCell,
  renderConfigTable,
  tableInPage,
} from '../../scripts/docs/config-table';
import { RequiredInProduction } from './required-in-production';

const SRC = join(__dirname, '..');
const DOCS = join(__dirname, '..', '..', 'docs');

/** Every file under a folder whose name passes the filter. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

const sourceFiles = filesUnder(SRC, (name) => name.endsWith('.ts') && !name.endsWith('.spec.ts'));

/** Variables read by name in the code: `process.env.X`, `env.X`, `env['X']`. */
const BY_NAME = [
  /process\.env\.([A-Z][A-Z0-9_]*)\b/g,
  /process\.env\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\]/g,
  /\benv\.([A-Z][A-Z0-9_]*)\b/g,
  /\benv\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\]/g,
];
/** Variables read by a name pattern: env[`RPC_URL_${id}`] anywhere. */
const BY_PREFIX = /\benv\[\s*`([A-Z][A-Z0-9_]*)\$\{/g;
/** In src/config, which reads the environment only, also name.startsWith('MINI_APP_'). */
const CONFIG_PREFIX = /startsWith\(\s*['"]([A-Z][A-Z0-9_]*_)['"]/g;

function namesReadByCode(): { names: Set<string>; prefixes: Set<string> } {
  const names = new Set<string>();
  const prefixes = new Set<string>();
  for (const file of sourceFiles) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of BY_NAME) for (const match of text.matchAll(pattern)) names.add(match[1]);
    for (const match of text.matchAll(BY_PREFIX)) prefixes.add(match[1]);
    if (file.startsWith(join(SRC, 'config')))
      for (const match of text.matchAll(CONFIG_PREFIX)) prefixes.add(match[1]);
    // The properties of every environment class (`…Env`), wherever it is declared.
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    for (const statement of source.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.name?.text.endsWith('Env')) continue;
      for (const member of statement.members) {
        if (ts.isPropertyDeclaration(member) && ts.isIdentifier(member.name))
          names.add(member.name.text);
      }
    }
  }
  return { names, prefixes };
}

describe('docs/configuration.md', () => {
  it('holds the table the configuration rules give now (npm run docs:config rewrites it)', async () => {
    const page = readFileSync(CONFIG_PAGE, 'utf8');
    const table = tableInPage(page);
    expect(table).toBeDefined();
    // On failure: run `npm run docs:config` and commit docs/configuration.md with the change.
    expect(table).toBe(await renderConfigTable());
  });

  it('docs/ names every environment variable the code reads', () => {
    const docs = filesUnder(DOCS, (name) => name.endsWith('.md'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const { names, prefixes } = namesReadByCode();
    // The scan itself still finds what it must (a name by property, by env.X and by pattern).
    expect([...names]).toEqual(expect.arrayContaining(['PORT', 'NODE_ENV', 'TX_FILL']));
    expect([...prefixes]).toEqual(expect.arrayContaining(['RPC_URL_', 'MINI_APP_']));
    const missing = [
      ...[...names].filter((name) => !new RegExp(`\\b${name}\\b`).test(docs)),
      ...[...prefixes].filter((prefix) => !docs.includes(prefix)).map((prefix) => `${prefix}*`),
    ];
    expect(missing).toEqual([]);
  });

  it('shows a setting production must set as such, with its development value', () => {
    class TeamEnv {
      @RequiredInProduction('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
      @IsEthereumAddress()
      TEAM_ADDRESS!: string;

      @IsOptional()
      TEAM_NAME = 'team';
    }
    expect(defaultCell(TeamEnv, 'TEAM_ADDRESS', undefined)).toBe(
      'required in production; `0x70997970C51812dc3A010C7d01b50e0d17dc79C8` in development and tests',
    );
    expect(defaultCell(TeamEnv, 'TEAM_NAME', 'team')).toBe('`team`');
  });
});
