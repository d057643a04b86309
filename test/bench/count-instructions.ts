/**
 * `npm run bench:count -- <row>...`: instructions per request of the named rows of the built
 * project, under callgrind (bench.instructions.ts), one after the other. For attributing cost
 * between layers without an A/B: a count repeats within about 1 % on an idle machine.
 */
import { instructionsPerRequest } from './bench.instructions';
import { SERVERS } from './bench.specs';

async function main(): Promise<void> {
  const ids = process.argv.slice(2);
  for (const id of ids) {
    const spec = SERVERS.find((server) => server.id === id);
    if (!spec) throw new Error(`no row ${id}; rows: ${SERVERS.map((s) => s.id).join(', ')}`);
    const count = await instructionsPerRequest(spec, 3300);
    console.log(`${spec.name}: ${Math.round(count / 1000)}k instructions/request`);
  }
}
void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
