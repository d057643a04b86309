import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/**
 * The bench's own server entries, booting the compiled app from dist/ (see bench-app.ts), the
 * load generator (started twice per row: compiled, it starts without ts-node), and bare Fastify
 * and the card's floor compiled, which the boot row (boot-time.ts) shows beside the ones run
 * through ts-node. What an entry imports from src/ it takes from dist/, as compiled code would.
 */
const ENTRIES = [
  'bench-app.ts',
  'many-actions.main.ts',
  'rate-keys.main.ts',
  'load.ts',
  'bare-fastify.server.ts',
  'nest-floor.server.ts',
  'nest-floor.parts.ts',
  'nest-bare.server.ts',
  'calculator.handwritten.ts',
];
export const ENTRY_DIR = 'dist/bench';

/**
 * Compiles the entries into dist/bench/ with the project's compiler options (as `nest build`
 * compiles src/), so those servers run compiled code like `node dist/main.js`, without ts-node
 * in their boot time or memory. Run after the build, which empties dist/.
 */
export function compileEntries(): void {
  const { config } = ts.readConfigFile('tsconfig.json', (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, '.');
  mkdirSync(ENTRY_DIR, { recursive: true });
  for (const entry of ENTRIES) {
    const fileName = join('test/bench', entry);
    const { outputText, diagnostics } = ts.transpileModule(readFileSync(fileName, 'utf8'), {
      compilerOptions: { ...options, sourceMap: false, incremental: false },
      fileName,
      reportDiagnostics: true,
    });
    if (diagnostics?.length) throw new Error(`${fileName}: ${diagnostics.length} compile errors`);
    const compiled = outputText.replaceAll('require("../../src/', 'require("../');
    writeFileSync(join(ENTRY_DIR, entry.replace(/\.ts$/, '.js')), compiled);
  }
}
