import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { pinned } from './bench.servers';
import { SERVERS, TS } from './bench.specs';

/** The stub node's process (stub-node.main.ts), pinned to the load's core. */
export interface StubNode {
  /** Its chain file, CHAIN_CONFIG_FILE of the stub rows. */
  file: string;
  stop(): Promise<void>;
}

/**
 * Starts the instant stub node and sets its chain file in the env of every stub row
 * (`needsStub`): run-bench.ts and bench:count measure those rows against it.
 */
export async function startStubNode(): Promise<StubNode> {
  const [command, args] = pinned(1, [...TS, 'test/bench/stub-node.main.ts']);
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  while (!text.includes('\n')) {
    const [event] = await Promise.race([once(child.stdout!, 'data'), once(child, 'exit')]);
    if (event === undefined || child.exitCode !== null) throw new Error('the stub node stopped');
  }
  const file = text.trim();
  for (const spec of SERVERS.filter((s) => s.needsStub)) {
    spec.env = { ...spec.env, CHAIN_CONFIG_FILE: file };
  }
  return {
    file,
    async stop(): Promise<void> {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
