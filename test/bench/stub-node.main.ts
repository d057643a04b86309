/**
 * The instant stub node of the stub rows, in a process of its own: healthyChain's answers from
 * memory (test/support/rpc-node.server.ts). Prints the chain file (CHAIN_CONFIG_FILE) naming it,
 * then serves until killed. bench.stub.ts pins it to the load's core: like the load generator, it
 * is the service's surroundings, and on the server's core its CPU would count as the service's.
 */
import { CountingServer } from '../support/counting.server';
import { fakeChainFile, healthyChain, jsonRpcNode, type RpcCall } from '../support/rpc-node.server';

/** Calls are not kept: a bench run sends millions. */
const forgotten = { push: (): number => 0 } as unknown as RpcCall[];

void CountingServer.start(jsonRpcNode(healthyChain(), forgotten)).then((stub) => {
  process.stdout.write(`${fakeChainFile(stub.base)}\n`);
});
