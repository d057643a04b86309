import { join } from 'node:path';
import { runtimeGraph } from '../testing/runtime-graph';

describe('client SDK imports', () => {
  it('loads no package at run time (no Nest, Fastify or validators), only its files and the guards', () => {
    const { files, packages } = runtimeGraph(join(__dirname, 'index.ts'));
    expect(packages).toEqual([]);
    expect(files).toContain(join(__dirname, '..', 'contract', 'response-guards.ts'));
    expect(files).toContain(join(__dirname, 'execute-dynamic.ts'));
  });
});
