/**
 * `npm run bench`'s boot row (issue 45: the production build answers its first request in at most
 * 2 × bare Fastify's time): bare Fastify, the card's floor and the production build, each booted
 * `boots` times in alternating order (A B C, C B A…), one at a time, pinned as the bench pins its
 * servers; the time from spawning the process to its first 200 on the calculator, and the CPU the
 * process used until then (steadier than the time on a shared machine). The production build runs
 * compiled, so it is compared with bare Fastify and the floor compiled too (dist/bench, no
 * ts-node): the floor is what any service of the card's shape pays to boot, NestJS's own load and
 * init included, and Nest with nothing in it (nest-bare.server.ts) what Nest alone pays. Bare
 * Fastify through ts-node, as its req/s row runs, is shown for the record.
 * Alone (after `npm run build`): `npx ts-node --transpile-only test/bench/boot-time.ts [boots]`.
 */
import { compileEntries, ENTRY_DIR } from './bench.entries';
import { cpuMs, SERVERS, type ServerSpec, startServer, stopServer } from './bench.servers';
import { NODE_FLAGS } from './bench.specs';
import { median } from './bench.stats';
import { printAlone } from './bench.report';

const PORT = 3270;
const spec = (id: string): ServerSpec => SERVERS.find((server) => server.id === id)!;
const COMPILED_FASTIFY: ServerSpec = {
  id: 'fastify-compiled',
  name: 'bare fastify, compiled (no ts-node)',
  args: [`${ENTRY_DIR}/bare-fastify.server.js`],
};
const COMPILED_FLOOR: ServerSpec = {
  ...spec('floor'),
  id: 'floor-compiled',
  name: 'nest floor, compiled (no ts-node)',
  args: [...NODE_FLAGS, `${ENTRY_DIR}/nest-floor.server.js`],
};
const COMPILED_BARE: ServerSpec = {
  ...spec('nest-bare'),
  id: 'nest-bare-compiled',
  name: 'nest bare, compiled (no ts-node)',
  args: [...NODE_FLAGS, `${ENTRY_DIR}/nest-bare.server.js`],
};
/** Compiled bare Fastify and floor first: the figures the production build is compared with. */
const BOOTED: readonly ServerSpec[] = [
  COMPILED_FASTIFY,
  COMPILED_FLOOR,
  { ...spec('memory'), name: 'nest (the production build, every layer on)' },
  spec('fastify'),
  COMPILED_BARE,
];

interface Boots {
  spec: ServerSpec;
  ms: number[];
  cpu: number[];
}

export async function bootTimes(boots = 7): Promise<string> {
  const rows: Boots[] = BOOTED.map((server) => ({ spec: server, ms: [], cpu: [] }));
  for (let round = 0; round < boots; round++) {
    for (const row of round % 2 === 0 ? rows : [...rows].reverse()) {
      const running = await startServer(row.spec, PORT);
      row.ms.push(running.bootMs);
      row.cpu.push(cpuMs(running));
      await stopServer(running);
    }
  }
  const [fastify, floor, project, , bare] = rows.map((row) => median(row.ms));
  const [fastifyCpu, floorCpu, projectCpu] = rows.map((row) => median(row.cpu));
  const lines = [
    `\nboot to the first answer (POST /api/calculator 200), ${boots} boots each in alternating order:`,
    '| server | ms (median) | ms (min–max) | CPU ms (median) | vs compiled bare fastify |',
    '|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.spec.name} | ${Math.round(median(row.ms))} | ${Math.round(Math.min(...row.ms))}–${Math.round(Math.max(...row.ms))} | ${Math.round(median(row.cpu))} | ${(median(row.ms) / fastify).toFixed(2)} |`,
    ),
    `boot: the production build ${Math.round(project)} ms, ${(project / fastify).toFixed(2)} × compiled bare Fastify's ${Math.round(fastify)} ms (CPU ${(projectCpu / fastifyCpu).toFixed(2)} ×; target: at most 2 ×) and ${(project / floor).toFixed(2)} × the compiled floor's ${Math.round(floor)} ms (CPU ${(projectCpu / floorCpu).toFixed(2)} ×), which is ${(floor / fastify).toFixed(2)} × compiled bare Fastify's; Nest with one controller and nothing else, compiled, is ${(bare / fastify).toFixed(2)} × it`,
  ];
  return lines.join('\n');
}

if (require.main === module) {
  compileEntries();
  printAlone(() => bootTimes(Number(process.argv[2] ?? 7)));
}
