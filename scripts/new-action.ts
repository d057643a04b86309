import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { scaffold, ScaffoldError, type ScaffoldResult } from './scaffold/scaffold';
import type { ActionMode, ActionVariant } from './scaffold/templates';

const USAGE =
  'usage: npm run new:action -- <name> [--mode data|transaction] [--chain | --spend | --transfer] [--verified] [--mini-app <id>]';

/** What --help prints: the usage line, then each option (docs/adding-an-action.md has the rest). */
const HELP = `${USAGE}

Scaffolds an action: its folder under src/actions/, its unit and e2e specs, its line in
src/actions/index.ts and, for a new mini-app, its declaration and icon. See docs/adding-an-action.md.

  <name>                  kebab-case (token-price): the folder, the files and the path /api/<name>
  --mode data             a data-mode action (the default): a text answered with its length
  --mode transaction      a transaction-mode action: the user sends an amount of the native coin
  --chain                 (data) reads the chain: an address's native balance, cached a few seconds
  --spend                 (transaction) pays USDC or USDT into the chain's router, approving it first
  --transfer              (transaction) a plain USDC or USDT transfer from the user, with a message
  --verified              only a signed-in user may call it (user: 'verified'); with --chain it
                          reads the signed-in user's own balance and takes no parameter
  --mini-app <id>         the mini-app it joins (default: a new one named after the action)
  -h, --help              this text`;
const MODES: readonly ActionMode[] = ['data', 'transaction'];

const VARIANTS: Record<ActionVariant, string> = {
  plain: '',
  chain: ' reading the chain (safe read, result cache)',
  spend: ' spending an ERC-20 through a contract (simulated, approval first)',
  transfer: ' transferring an ERC-20 from the user (balance checked, no approval)',
};

/** The examples that cannot be combined: one at most. */
const EXCLUSIVE = ['chain', 'spend', 'transfer'] as const;

function report(
  result: ScaffoldResult,
  mode: ActionMode,
  name: string,
  variant: ActionVariant,
  verified: boolean,
): string {
  const { miniApp } = result;
  const who = verified ? ', for a verified (signed-in) user only,' : '';
  const lines = [
    `Wrote a ${mode}-mode action${VARIANTS[variant]}${who} answering POST ${result.path}:`,
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
        transfer: { type: 'boolean', default: false },
        verified: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  if (values.help) {
    console.log(HELP);
    return 0;
  }
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
  const chosen = EXCLUSIVE.filter((variant) => values[variant]);
  if (chosen.length > 1) {
    const named = chosen.map((variant) => `--${variant}`).join(' and ');
    console.error(`${named} are different examples: choose one\n${USAGE}`);
    return 2;
  }
  const variant: ActionVariant = chosen[0] ?? 'plain';
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
    console.log(report(result, mode, name, variant, values.verified));
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
