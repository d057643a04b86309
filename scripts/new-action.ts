import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { scaffold, ScaffoldError, type ScaffoldResult } from './scaffold/scaffold';
import type { ActionMode, ActionVariant } from './scaffold/templates';

const USAGE =
  'usage: npm run new:action -- <name> [--mode data|transaction] [--chain | --spend] [--verified] [--mini-app <id>]';
const MODES: readonly ActionMode[] = ['data', 'transaction'];

const VARIANTS: Record<ActionVariant, string> = {
  plain: '',
  chain: ' reading the chain (safe read, result cache)',
  spend: ' spending an ERC-20 through a contract (simulated, approval first)',
};

function report(
  result: ScaffoldResult,
  mode: ActionMode,
  name: string,
  variant: ActionVariant,
): string {
  const { miniApp } = result;
  const lines = [
    `Wrote a ${mode}-mode action${VARIANTS[variant]} answering POST ${result.path}:`,
    ...result.created.map((file) => `  created  ${file}`),
    ...result.changed.map((file) => `  changed  ${file}`),
    miniApp.created
      ? `It is the first action of a new mini-app "${miniApp.id}" (${miniApp.constant} in src/actions/mini-apps.ts).`
      : `It joins the mini-app "${miniApp.id}" (${miniApp.constant}).`,
    '',
    'Next:',
    `  npx jest src/actions/${name} test/actions/${name}.e2e-spec.ts   # its unit and e2e specs, passing as generated`,
    `  edit src/actions/${name}/${name}.action.ts (parameters, samples) and ${name}.service.ts (the work)`,
  ];
  if (miniApp.created) {
    lines.push(
      `  give the mini-app a real title and description in src/actions/mini-apps.ts and draw its icon (see docs/mini-apps-and-platform.md);`,
      `  add the next action to it with --mini-app ${miniApp.id}`,
    );
  }
  lines.push(
    `  npm run dev, then npm run check -- http://localhost:3000 --action ${result.path}   # as the platform will meet it, offline`,
    '  npm run lint && npm run typecheck && npm test   # before you commit',
  );
  return lines.join('\n');
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        mode: { type: 'string', default: 'data' },
        'mini-app': { type: 'string' },
        chain: { type: 'boolean', default: false },
        spend: { type: 'boolean', default: false },
        verified: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  const mode = values.mode as ActionMode;
  if (positionals.length !== 1 || !MODES.includes(mode)) {
    console.error(
      positionals.length !== 1
        ? `give exactly one action name (got ${positionals.length})\n${USAGE}`
        : `--mode must be data or transaction, not "${values.mode}"\n${USAGE}`,
    );
    return 2;
  }
  const [name] = positionals;
  if (values.chain && values.spend) {
    console.error(`--chain and --spend are two different examples: choose one\n${USAGE}`);
    return 2;
  }
  const variant: ActionVariant = values.chain ? 'chain' : values.spend ? 'spend' : 'plain';
  try {
    const root = join(__dirname, '..');
    const result = await scaffold({
      root,
      name,
      mode,
      variant,
      miniApp: values['mini-app'],
      verified: values.verified,
    });
    console.log(report(result, mode, name, variant));
    return 0;
  } catch (error) {
    if (!(error instanceof ScaffoldError)) throw error;
    console.error(`new:action: ${error.message}. Nothing was written.`);
    return 1;
  }
}

void main().then((code) => {
  process.exitCode = code;
});
