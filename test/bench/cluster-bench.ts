/**
 * npm run bench:cluster [-- --no-build --seconds 10 --rounds 2]
 *
 * 1. send-token answers per second (production build, TX_FILL=none, against the instant stub
 *    node, so the row's cost is the service's and its Redis's) on one redis-server and on a
 *    Redis Cluster of 3 primaries and 3 replicas (test/support/local-cluster.helper.ts), in
 *    alternating rounds, pinned as `npm run bench` pins.
 * 2. The replication window: acknowledged writes lost when a primary crashes (SIGKILL) and its
 *    replica takes over, with 16 writes in flight; then the same with `WAIT 1 100` after each.
 *    A `CLUSTER FAILOVER` (the planned switch) loses none by design: the replica catches up first.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { Cluster } from 'ioredis';
import { LocalCluster } from '../support/local-cluster.helper';
import { startNode, stopNodes, until } from '../support/redis-cluster.helper';
import { freePort } from '../support/redis.helper';
import { compileEntries } from './bench.entries';
import { runLoad, startServer, stopServer } from './bench.servers';
import { NODE_FLAGS, SEND_TOKEN } from './bench.specs';
import { startStubNode } from './bench.stub';

const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
  },
});
const PRODUCTION = {
  NODE_ENV: 'production',
  AUTH_SECRET: 'QPftIliESLysXUFyWpd3NNp4omeDCeJS9s2vUXw7HLk=',
  RATE_LIMIT_IP_MAX: '1000000000',
  RATE_LIMIT_USER_MAX: '1000000000',
  TX_FILL: 'none',
};

async function throughput(redisUrl: string, chainFile: string, name: string): Promise<string> {
  const spec = {
    id: name,
    name,
    args: [...NODE_FLAGS, 'dist/main.js'],
    env: { ...PRODUCTION, CHAIN_CONFIG_FILE: chainFile, REDIS_URL: redisUrl },
    target: SEND_TOKEN,
  };
  const running = await startServer(spec, await freePort());
  try {
    await runLoad(running, 2); // warm-up
    const load = await runLoad(running, Number(values.seconds));
    if (load.non2xx + load.errors > 0)
      throw new Error(`${name}: ${load.non2xx} non-2xx, ${load.errors} errors`);
    return `${name.padEnd(28)} ${Math.round(load.rps).toLocaleString('en-US').padStart(7)} req/s  p50 ${load.p50} ms  p99 ${load.p99} ms`;
  } finally {
    await stopServer(running);
  }
}

/** Acknowledged writes lost when the primary of `{window}` is killed and its replica promoted. */
async function replicationWindow(cluster: LocalCluster, wait: boolean): Promise<string> {
  const tag = `{window-${wait ? 'wait' : 'plain'}}`;
  const client = new Cluster(cluster.nodes.map((n) => ({ host: '127.0.0.1', port: n.port })));
  const primary = await cluster.primaryOf(tag);
  const acked: number[] = [];
  let next = 0;
  let stop = false;
  const writer = async (): Promise<void> => {
    while (!stop) {
      const i = next++;
      try {
        await client.set(`${tag}:${i}`, '1');
        if (wait) await client.call('WAIT', '1', '100');
        if (!stop) acked.push(i);
      } catch {
        return;
      }
    }
  };
  const writers = Array.from({ length: 16 }, writer);
  await until('a few thousand writes', () => Promise.resolve(acked.length > 3000));
  const node = cluster.nodes.find((n) => n.port === primary)!;
  node.child.kill('SIGKILL');
  const killedAt = acked.length;
  stop = true;
  await Promise.all(writers);
  await until(
    'the replica promoted',
    async () => !(await cluster.primaryPorts()).includes(primary),
  );
  await cluster.ready();
  let lost = 0;
  for (let from = 0; from < killedAt; from += 500) {
    const keys = acked.slice(from, Math.min(killedAt, from + 500)).map((i) => `${tag}:${i}`);
    lost += (await client.mget(...keys)).filter((v) => v === null).length;
  }
  client.disconnect();
  const how = wait ? 'SET + WAIT 1 100' : 'SET';
  return `${how.padEnd(18)} ${killedAt.toLocaleString('en-US')} acknowledged before the kill, ${lost} lost`;
}

async function main(): Promise<void> {
  if (!values['no-build']) {
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  compileEntries();
  const stub = await startStubNode();
  const single = await startNode(['--maxmemory-policy', 'noeviction']);
  const cluster = await LocalCluster.start();
  try {
    console.log(
      `send-token, ${values.seconds} s per row, ${values.rounds} rounds (${new Date().toISOString()})`,
    );
    for (let round = 0; round < Number(values.rounds); round++) {
      const rows = [
        () => throughput(`redis://127.0.0.1:${single.port}`, stub.file, 'one redis-server'),
        () => throughput(`redis+cluster://${cluster.seeds}`, stub.file, 'cluster (3 + 3)'),
      ];
      for (const row of round % 2 === 0 ? rows : rows.reverse()) console.log(await row());
    }
    console.log('replication window: a primary killed (SIGKILL), 16 writers');
    console.log(await replicationWindow(cluster, false));
    const second = await LocalCluster.start();
    try {
      console.log(await replicationWindow(second, true));
    } finally {
      await second.stop();
    }
  } finally {
    await cluster.stop();
    await stopNodes([single]);
    await stub.stop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
