import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/redis.helper';

/**
 * A private redis-server the chaos run kills (SIGKILL) and starts again on the same port. Unlike
 * startRedisServer's, it persists: a Redis restarted empty would lose the intents, the outbox and
 * the cursor, which no service can survive, while a managed Redis restarts with its data. Every
 * write is in the append-only file before it is acknowledged (`appendfsync always`), so a kill
 * loses nothing a replica was told was written.
 */
export class ChaosRedis {
  private child?: ChildProcess;
  /** Times the server was killed and started again. */
  restarts = 0;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(): Promise<ChaosRedis> {
    const redis = new ChaosRedis(await freePort(), await mkdtemp(join(tmpdir(), 'chaos-redis-')));
    await redis.launch();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Kills the server as a crash would, then starts it again on the same port and data. */
  async restart(): Promise<void> {
    await this.kill();
    await this.launch();
    this.restarts += 1;
  }

  /** Kills the server and deletes its data. */
  async stop(): Promise<void> {
    await this.kill();
    await rm(this.dir, { recursive: true, force: true });
  }

  private async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await once(child, 'exit');
  }

  private async launch(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir];
    const persist = ['--save', '', '--appendonly', 'yes', '--appendfsync', 'always'];
    const child = spawn('redis-server', [...args, ...persist, '--maxmemory-policy', 'noeviction'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.child = child;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        if (!output.includes('Ready to accept connections')) return;
        child.stdout?.off('data', onData);
        resolve();
      };
      child.stdout?.on('data', onData);
    });
    child.removeAllListeners('exit');
    child.stdout?.resume();
  }
}
