import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** A production build in a folder of its own; `remove` deletes it when the suite ends. */
export interface ProductionBuild {
  /** The compiled entry point, run as the container runs dist/main.js. */
  main: string;
  remove: () => Promise<void>;
}

/**
 * Compiles src with the production settings (`tsconfig.build.json`, as `npm run build`) into a
 * directory of its own under dist/, so the test runs the current source's build whatever dist/
 * holds, and node_modules resolves from the project as it does for dist/main.js.
 */
export async function buildProduction(): Promise<ProductionBuild> {
  await mkdir(join(ROOT, 'dist'), { recursive: true });
  const outDir = await mkdtemp(join(ROOT, 'dist', 'e2e-build-'));
  const tsc = spawn(
    process.execPath,
    [
      require.resolve('typescript/bin/tsc'),
      // Types are checked by `npm run typecheck` and `npm run build`: emitting alone is twice as fast.
      ...['-p', 'tsconfig.build.json', '--outDir', outDir, '--incremental', 'false', '--noCheck'],
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  tsc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  tsc.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(tsc, 'exit')) as [number | null];
  const remove = (): Promise<void> => rm(outDir, { recursive: true, force: true });
  if (code !== 0) {
    await remove();
    throw new Error(`the production build failed (${code}):\n${output}`);
  }
  // As nest-cli.json's `assets`: the icons the service serves sit beside the compiled code.
  await cp(join(ROOT, 'src', 'assets'), join(outDir, 'assets'), { recursive: true });
  return { main: join(outDir, 'main.js'), remove };
}

/** A spawned `node <build>/main.js` whose whole output is kept and can be waited on. */
export class ProductionServer {
  private output = '';
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>;

  private constructor(private readonly child: ChildProcess) {
    this.exited = once(child, 'exit').then(([code]) => code as number | null);
    const keep = (chunk: Buffer): void => {
      this.output += chunk.toString();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  /** Starts the build on 127.0.0.1:`port` and resolves once it listens. */
  static async start(
    main: string,
    port: number,
    env: Record<string, string>,
  ): Promise<ProductionServer> {
    const child = spawn(process.execPath, [main], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        // No metrics listener unless a test asks: 9464 may be taken by a concurrent suite.
        METRICS_PORT: '0',
        // The shipped my-transactions declares user: 'verified': production needs the key.
        AUTH_SECRET: '73m4IjpO1IiVcEi0zDBHkKV45LCETxBNmxiu878Edq4=',
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ProductionServer(child);
    await server.waitFor(/Listening on/);
    return server;
  }

  /** Everything printed so far, stdout and stderr. */
  get log(): string {
    return this.output;
  }

  /** Resolves once the output (from the start, not only from now) matches `pattern`. */
  waitFor(pattern: RegExp): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!pattern.test(this.output)) return;
        this.child.stdout?.off('data', check);
        this.child.stderr?.off('data', check);
        resolve();
      };
      this.child.stdout?.on('data', check);
      this.child.stderr?.on('data', check);
      this.exited.then(
        () => reject(new Error(`exited before printing ${pattern}:\n${this.output.slice(-2000)}`)),
        reject,
      );
      check();
    });
  }

  /**
   * Sends the process a signal (SIGTERM, SIGINT), as an orchestrator or Ctrl-C would, to test the
   * shutdown.
   */
  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Kills what a failed test left running. */
  stop(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
