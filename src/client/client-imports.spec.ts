import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/**
 * Walks what `src/client/index.ts` loads at run time (type-only imports are erased by the
 * compiler, exactly as in the build) and collects the packages it reaches.
 */
function runtimeGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    });
    for (const [, specifier] of outputText.matchAll(/require\("([^"]+)"\)/g)) {
      if (specifier.startsWith('.')) visit(`${resolve(dirname(file), specifier)}.ts`);
      else packages.add(specifier);
    }
  };
  visit(entry);
  return { files: [...files], packages: [...packages] };
}

describe('client SDK imports', () => {
  it('loads no package at run time (no Nest, Fastify or validators), only its files and the guards', () => {
    const { files, packages } = runtimeGraph(join(__dirname, 'index.ts'));
    expect(packages).toEqual([]);
    expect(files).toContain(join(__dirname, '..', 'contract', 'response-guards.ts'));
    expect(files).toContain(join(__dirname, 'execute-dynamic.ts'));
  });
});
