import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The files a TypeScript entry loads at run time and the packages it reaches, type-only imports
 * erased by the compiler exactly as in a build or a bundle: what proves a module browser-safe.
 */
export function runtimeGraph(entry: string): { files: string[]; packages: string[] } {
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
