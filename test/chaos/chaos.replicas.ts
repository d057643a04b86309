import { freePort } from '../support/redis.helper';
import { ProductionServer } from '../support/production.server';

/**
 * One replica of the production build on a port of its own, which the chaos run kills with
 * SIGKILL (no shutdown hook runs: leases, locks and outbox entries are left as a crash leaves
 * them) and starts again.
 */
export class Replica {
  private server?: ProductionServer;
  /** Times it was killed. */
  kills = 0;

  private constructor(
    readonly name: string,
    readonly port: number,
    private readonly main: string,
    private readonly env: Record<string, string>,
  ) {}

  static async start(name: string, main: string, env: Record<string, string>): Promise<Replica> {
    const replica = new Replica(name, await freePort(), main, env);
    await replica.boot();
    return replica;
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Whether it is listening now (between a kill and the end of its restart, not). */
  get live(): boolean {
    return this.server !== undefined;
  }

  /** Kills it as a crash would and starts it again; resolves once it listens. */
  async crash(): Promise<void> {
    await this.kill();
    this.kills += 1;
    await this.boot();
  }

  /** Kills it (SIGKILL) and waits for its exit. */
  async kill(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.stop();
    await server.exited;
  }

  /** The last of its output, for a report of what went wrong. */
  tail(): string {
    return this.server?.log.slice(-3000) ?? '';
  }

  private async boot(): Promise<void> {
    this.server = await ProductionServer.start(this.main, this.port, this.env);
  }
}
