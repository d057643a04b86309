import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { ActionDeclaration, ActionParameter } from '../../src/contract/action.types';
import { toDynamicAction } from '../../src/kit/action.registry';

/** One declared action with where its handler lives, for the handler's answer type. */
export interface ClientAction {
  declaration: ActionDeclaration;
  /** The controller class and its file (absolute), and the handler's method name. */
  controller: { name: string; file: string; method: string };
}

const UPLOADS = new Set(['file', 'image']);

/** `/api/best-swap` → `bestSwap`; a leading digit gets an underscore. */
export function functionName(path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const last = words.slice(words[0] === 'api' && words.length > 1 ? 1 : 0);
  const name = last
    .map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase()))
    .join('');
  return /^[0-9]/.test(name) ? `_${name}` : name || 'root';
}

/** The TypeScript type a client sends for one parameter (what the contract carries as JSON). */
export function wireType(param: ActionParameter): string {
  const { type } = param;
  if (param.options && param.options.length > 0) {
    return param.options.map((o) => JSON.stringify(o.value)).join(' | ');
  }
  if (type === 'number') return 'number';
  if (type === 'boolean' || type === 'bool') return 'boolean';
  if (type === 'address' || /^bytes\d*$/.test(type)) return 'HexAddress';
  if (/^u?int\d*$/.test(type)) return 'number | string';
  return 'string';
}

/** A parameter the caller must give: required and without a default or fixed value. */
const mustGive = (p: ActionParameter): boolean =>
  p.required === true && p.value === undefined && p.fixed !== true;

function valuesType(name: string, params: readonly ActionParameter[]): string {
  const sent = params.filter((p) => !UPLOADS.has(p.type) && p.fixed !== true);
  const fields = sent.map((p) => {
    const doc = p.description
      ? `  /** ${p.label}: ${p.description.replace(/\*\//g, '* /')} */\n`
      : `  /** ${p.label} */\n`;
    return `${doc}  ${JSON.stringify(p.name)}${mustGive(p) ? '' : '?'}: ${wireType(p)};`;
  });
  // No parameter to send: an empty interface is what lint refuses (no-empty-object-type).
  if (fields.length === 0)
    return `/** It takes no parameter: pass {}. */\nexport type ${name} = Record<string, never>;`;
  return `export interface ${name} {\n${fields.join('\n')}\n}`;
}

const pascal = (name: string): string => name[0].toUpperCase() + name.slice(1).replace(/^_/, '');

/** The generated module: per action its values type, metadata and typed function. */
export function clientSource(
  actions: readonly ClientAction[],
  outFile: string,
  answers: ReadonlyMap<string, string>,
): string {
  const outDir = dirname(outFile);
  const importPath = (file: string): string => {
    const path = relative(outDir, file).replace(/\\/g, '/').replace(/\.ts$/, '');
    return path.startsWith('.') ? path : `./${path}`;
  };
  const clientDir = join(__dirname, '..', '..', 'src', 'client');
  /** `import type { <the names the body uses> } from <file>`, or nothing. */
  const typeImport = (body: string, names: string[], file: string): string[] => {
    const used = names.filter((name) => new RegExp(`\\b${name}\\b`).test(body));
    return used.length > 0
      ? [`import type { ${used.join(', ')} } from '${importPath(file)}';`]
      : [];
  };
  const names: string[] = [];
  const blocks = actions.map(({ declaration }) => {
    const fn = functionName(declaration.path);
    names.push(fn);
    const published = toDynamicAction(declaration);
    const data = declaration.responseType === 'data';
    const values = `${pascal(fn)}Values`;
    const options = declaration.requiresUser ? 'UserOptions' : 'ExecuteDynamicOptions';
    const answerData = `${pascal(fn)}Data`;
    const answer = data ? `DynamicActionDataResponse<${answerData}>` : 'TransactionAnswer';
    const doc = [declaration.label, declaration.description].filter(Boolean).join(': ');
    return [
      valuesType(values, published.params ?? []),
      ...(data
        ? [
            `/** What ${declaration.path} answers in \`data\` (from its handler's return type). */`,
            `export type ${answerData} = ${answers.get(declaration.path) ?? 'unknown'};`,
          ]
        : []),
      `const ${fn}Action: ${data ? 'DataModeAction' : 'DynamicAction'} = ${JSON.stringify(published)};`,
      `/** ${doc.replace(/\*\//g, '* /')} (POST ${declaration.path}, ${data ? 'data' : 'transaction'} mode). */`,
      `export function ${fn}(values: ${values}, options: ${options}): Promise<${answer}> {`,
      data
        ? `  return executeDynamic<${answerData}>(${fn}Action, { ...values }, options);`
        : `  return executeDynamic(${fn}Action, { ...values }, options);`,
      '}',
    ].join('\n');
  });
  const body = blocks.join('\n');
  return [
    '// Generated by `npm run client` from the action declarations: do not edit, run it again.',
    '// Self-contained and browser-safe: at run time it loads executeDynamic alone.',
    `import { executeDynamic } from '${importPath(join(clientDir, 'execute-dynamic.ts'))}';`,
    ...typeImport(
      body,
      ['DataModeAction', 'ExecuteDynamicOptions'],
      join(clientDir, 'client.types.ts'),
    ),
    ...typeImport(
      body,
      ['DynamicAction', 'DynamicActionDataResponse'],
      join(clientDir, '..', 'contract', 'action.types.ts'),
    ),
    ...typeImport(
      body,
      ['HexAddress', 'TransactionAnswer', 'UserOptions'],
      join(clientDir, 'typed-actions.ts'),
    ),
    '',
    ...blocks.flatMap((b) => [b, '']),
    `/** Every action's function, by name. */`,
    `export const actions = { ${names.join(', ')} };`,
    '',
  ].join('\n');
}

/** The controller class declared in one of the project's `*.controller.ts` files, and its handler. */
export function findController(actionsDir: string, className: string): ClientAction['controller'] {
  const files = readdirSync(actionsDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.controller.ts'))
    .map((f) => join(actionsDir, f));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (!new RegExp(`export class ${className}\\b`).test(text)) continue;
    const method = /@RunAction\(\)\s*(?:async\s+)?(\w+)\s*\(/.exec(text)?.[1];
    if (!method) throw new Error(`${file}: ${className} has no @RunAction() handler`);
    return { name: className, file, method };
  }
  throw new Error(`no *.controller.ts under ${actionsDir} exports ${className}`);
}
