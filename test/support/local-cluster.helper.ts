import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ask,
  infoField,
  redisCli,
  type RedisNode,
  startNode,
  stopNodes,
  until,
  writeIn,
} from './redis-cluster.helper';

/** A node as CLUSTER NODES lists it. */
interface ClusterNodeLine {
  id: string;
  port: number;
  primary: boolean;
  /** A replica's primary's id. */
  of?: string;
  slots: string[];
}

/**
 * A Redis Cluster of `primaries` primaries with one replica each, from redis-server processes on
 * free ports of 127.0.0.1 (temporary directories, no persistence), made with
 * `redis-cli --cluster create`, and ready once every node says `cluster_state:ok` and every
 * replica's link to its primary is up. A short node timeout lets a killed primary be replaced in
 * seconds.
 */
export class LocalCluster {
  /** Every node started, primaries and replicas. */
  readonly nodes: RedisNode[] = [];

  /** Starts the nodes, makes them a cluster, and resolves once it is ready. */
  static async start(primaries = 3): Promise<LocalCluster> {
    const cluster = new LocalCluster();
    try {
      for (let i = 0; i < primaries * 2; i++) {
        cluster.nodes.push(
          await startNode([
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            'nodes.conf',
            '--cluster-node-timeout',
            '1000',
            '--maxmemory-policy',
            'noeviction',
          ]),
        );
      }
      redisCli([
        '--cluster',
        'create',
        ...cluster.nodes.map((n) => `127.0.0.1:${n.port}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ]);
      await cluster.ready();
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  /** `host:port` of every node, the service's seed list. */
  get seeds(): string {
    return this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  }

  /** Every node reports the cluster ok, each replica is in sync, and all agree on the primaries. */
  async ready(): Promise<void> {
    await until('cluster_state:ok on every node', async () => {
      for (const { port } of this.live()) {
        const info = await ask(port, 'CLUSTER', 'INFO');
        if (infoField(info, 'cluster_state') !== 'ok') return false;
        if (infoField(info, 'cluster_slots_ok') !== '16384') return false;
      }
      const views = await Promise.all(this.live().map((n) => this.primaryPorts(n.port)));
      return views.every((view) => view.join() === views[0].join());
    });
    await until('every replica in sync', async () => {
      for (const line of await this.table()) {
        if (line.primary) continue;
        const info = await ask(line.port, 'INFO', 'replication');
        if (infoField(info, 'master_link_status') !== 'up') return false;
      }
      return true;
    });
  }

  /** The nodes as one node sees them. */
  async table(port = this.live()[0].port): Promise<ClusterNodeLine[]> {
    const text = await ask(port, 'CLUSTER', 'NODES');
    return text
      .trim()
      .split('\n')
      .filter((line) => !line.includes('fail') && !line.includes('noaddr'))
      .map((line) => {
        const [id, address, flags, of, , , , , ...slots] = line.split(' ');
        return {
          id,
          port: Number(/:(\d+)@/.exec(address)![1]),
          primary: flags.includes('master'),
          of: of === '-' ? undefined : of,
          slots,
        };
      });
  }

  /** The ports of the primaries that hold slots, sorted. */
  async primaryPorts(port?: number): Promise<number[]> {
    const lines = await this.table(port);
    return lines
      .filter((l) => l.primary && l.slots.length > 0)
      .map((l) => l.port)
      .sort((a, b) => a - b);
  }

  /** The port of the primary that holds `key`'s slot (CLUSTER KEYSLOT, then the node table). */
  async primaryOf(key: string): Promise<number> {
    const slot = Number(await ask(this.live()[0].port, 'CLUSTER', 'KEYSLOT', key));
    const owner = (await this.table()).find(
      (line) =>
        line.primary &&
        line.slots.some((range) => {
          const [from, to = from] = range.split('-').map(Number);
          return slot >= from && slot <= to;
        }),
    );
    if (!owner) throw new Error(`No primary holds slot ${slot}`);
    return owner.port;
  }

  /** The port of a replica of the primary on `primaryPort`. */
  async replicaOf(primaryPort: number): Promise<number> {
    const lines = await this.table();
    const primary = lines.find((l) => l.port === primaryPort)!;
    return lines.find((l) => l.of === primary.id)!.port;
  }

  /**
   * `CLUSTER FAILOVER` on the replica of `primaryPort`: the replica takes over its slots (the old
   * primary becomes its replica). Resolves once every node agrees and the cluster is ok again.
   */
  async failover(primaryPort: number): Promise<number> {
    const replica = await this.replicaOf(primaryPort);
    await ask(replica, 'CLUSTER', 'FAILOVER');
    await until('the replica promoted', async () => (await this.primaryPorts()).includes(replica));
    await this.ready();
    return replica;
  }

  /** `redis-cli --cluster check`'s report. */
  check(): string {
    return redisCli(['--cluster', 'check', `127.0.0.1:${this.live()[0].port}`]);
  }

  /** Kills every node and removes their directories. */
  async stop(): Promise<void> {
    await stopNodes(this.nodes);
  }

  private live(): RedisNode[] {
    return this.nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
  }
}

/**
 * One primary, one replica and one sentinel watching them (`redis-server <conf> --sentinel`),
 * quorum 1, on free ports. `failover()` asks the sentinel for SENTINEL FAILOVER and waits until it
 * names the replica as the primary and the old primary follows it.
 */
export class LocalSentinel {
  /** The name the sentinel monitors the primary under (REDIS_SENTINEL_NAME). */
  static readonly NAME = 'dynamic-actions';
  /** The primary, the replica and the sentinel, in that order. */
  readonly nodes: RedisNode[] = [];

  /** Starts the three and resolves once the sentinel knows the replica. */
  static async start(): Promise<LocalSentinel> {
    const local = new LocalSentinel();
    try {
      const primary = await startNode(['--maxmemory-policy', 'noeviction']);
      local.nodes.push(primary);
      const replica = await startNode(['--replicaof', '127.0.0.1', String(primary.port)]);
      local.nodes.push(replica);
      await until('the replica in sync', async () => {
        const info = await ask(replica.port, 'INFO', 'replication');
        return infoField(info, 'master_link_status') === 'up';
      });
      const conf = [
        `sentinel monitor ${LocalSentinel.NAME} 127.0.0.1 ${primary.port} 1`,
        `sentinel down-after-milliseconds ${LocalSentinel.NAME} 1000`,
        `sentinel failover-timeout ${LocalSentinel.NAME} 10000`,
        '',
      ].join('\n');
      const dir = mkdtempSync(join(tmpdir(), 'redis-sentinel-conf-'));
      local.confDir = dir;
      const path = writeIn(dir, 'sentinel.conf', conf);
      local.nodes.push(
        await startNode([], { before: [path, '--sentinel'], ready: '+monitor master' }),
      );
      await until('the sentinel knows the replica', async () => {
        const replicas = await ask(local.sentinelPort, 'SENTINEL', 'REPLICAS', LocalSentinel.NAME);
        return replicas.includes(String(replica.port)) && !replicas.includes('s_down');
      });
      return local;
    } catch (error) {
      await local.stop();
      throw error;
    }
  }

  private confDir?: string;

  /** The sentinel's port (REDIS_SENTINELS). */
  get sentinelPort(): number {
    return this.nodes[2].port;
  }

  /** The port the sentinel names as the primary now. */
  async primaryPort(): Promise<number> {
    const answer = await ask(
      this.sentinelPort,
      'SENTINEL',
      'GET-MASTER-ADDR-BY-NAME',
      LocalSentinel.NAME,
    );
    return Number((JSON.parse(answer) as string[])[1]);
  }

  /**
   * SENTINEL FAILOVER: the replica is promoted; resolves once the sentinel names it, it answers
   * as a primary and the old primary is its replica (its copy of the data may still be syncing).
   */
  async failover(): Promise<number> {
    const before = await this.primaryPort();
    await ask(this.sentinelPort, 'SENTINEL', 'FAILOVER', LocalSentinel.NAME);
    await until(
      'the sentinel to name the replica',
      async () => (await this.primaryPort()) !== before,
    );
    const after = await this.primaryPort();
    await until('the new primary to serve, the old one demoted', async () => {
      const role = infoField(await ask(after, 'INFO', 'replication'), 'role');
      const old = infoField(await ask(before, 'INFO', 'replication'), 'role');
      return role === 'master' && old === 'slave';
    });
    return after;
  }

  /** Kills the three and removes their directories. */
  async stop(): Promise<void> {
    await stopNodes(this.nodes);
    if (this.confDir) rmSync(this.confDir, { recursive: true, force: true });
  }
}
