/**
 * `npm run bench:count -- <row>...`: instructions per request of the named rows of the built
 * project, under callgrind (bench.instructions.ts), one after the other. For attributing cost
 * between layers without an A/B: a count repeats within about 1 % on an idle machine.
 */
import { instructionsPerRequest } from './bench.instructions';
import { SERVERS } from './bench.specs';
import { startStubNode } from './bench.stub';

async function main(): Promise<void> {
  const ids = process.argv.slice(2);
  const specs = ids.map((id) => {
    const spec = SERVERS.find((server) => server.id === id);
    if (!spec) throw new Error(`no row ${id}; rows: ${SERVERS.map((s) => s.id).join(', ')}`);
    return spec;
  });
  const stub = specs.some((spec) => spec.needsStub) ? await startStubNode() : undefined;
  try {
    for (const spec of specs) {
      const count = await instructionsPerRequest(spec, 3300);
      console.log(`${spec.name}: ${Math.round(count / 1000)}k instructions/request`);
    }
  } finally {
    await stub?.stop();
  }
}
void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
