import { balanceAnswer, balanceSpec } from './chain-templates';
import { chainSetup } from './chain-setup';
import type { ModeTemplates, TemplateInput } from './templates';

/**
 * `--chain --verified`: a data-mode action of the signed-in user's own: their balance of the
 * chain's native coin, read safely and cached a few seconds. It takes no parameter: the user is
 * the one the session proves (`user: 'verified'`, added by asVerified), never an address a caller
 * names.
 */
export function verifiedChainTemplates({ names, miniAppConstant }: TemplateInput): ModeTemplates {
  const { kebab, pascal, camel, title } = names;
  return {
    action: `import { defineAction } from '../../kit';
import { ${miniAppConstant} } from '../mini-apps';

export const ${camel}Action = defineAction({
  label: '${title}',
  description: 'Reads your balance of the chain’s native coin (sign in first)',
  chains: { source: 43113 },
  path: '/api/${kebab}',
  miniApp: ${miniAppConstant},
  // No params: the address read is the signed-in user's, which the session proves.
  responseType: 'data',
  /** It reads the chain's RPC node: a 5xx is its answer when the node is down. */
  callsOutside: true,
  samples: [{ params: {} }],
});
`,
    service: `import { Injectable } from '@nestjs/common';
import type { Address } from 'viem';
import { fromBaseUnits } from '../../evm';
import { type ActionResult, ChainRegistry, type ContextOf, ResultCache } from '../../kit';
import { ${camel}Action } from './${kebab}.action';

${balanceAnswer(pascal)}

@Injectable()
export class ${pascal}Service {
  constructor(
    private readonly chains: ChainRegistry,
    private readonly cache: ResultCache,
  ) {}

  /** The signed-in user's balance: \`userAddress\` is the address their session proves. */
  async run(context: ContextOf<typeof ${camel}Action>): Promise<ActionResult<${pascal}Answer>> {
    const { userAddress } = context;
    // The request's chain (a chain the action does not declare is already a 400).
    const chain = this.chains.forRequest(${camel}Action, context);
    const key = '${kebab}:' + chain.chainId + ':' + userAddress.toLowerCase();
    // The safe read: a failing node is a 500 RPC_ERROR naming the chain, never viem's text
    // (which carries the node's URL). Cached values come back JSON-safe: the bigint as text.
    const { value, cached } = await this.cache.getOrCompute(
      key,
      () =>
        this.chains.read(chain, 'balance', (client) => client.getBalance({ address: userAddress })),
      CACHE_SECONDS,
    );
    return { ...describeBalance(userAddress, chain, BigInt(value)), metadata: { cached } };
  }
}
`,
    serviceSpec: balanceSpec(kebab),
    returns: {
      type: `Promise<ActionResult<${pascal}Answer>>`,
      kitImport: 'type ActionResult',
      serviceImport: `type ${pascal}Answer, `,
    },
    params: false,
    e2eImports: `import { formatEther } from 'viem';
import { startTestChain, type TestChain, writeNodeDownChainFile } from '../../src/testing';
`,
    e2eSetup: chainSetup(
      'A local chain passing for the declared chain (43113), with funded users and its chain file.',
    ),
    e2eTests: `
  it("answers the signed-in user's balance, then the same from the cache", async () => {
    const address = testChain.users[1].address;
    const onChain = await testChain.chain.publicClient.getBalance({ address });
    // Signed in as the x-user-address given (postJson above): the balance read is theirs.
    const asUser = { 'x-user-address': address };
    const first = await postJson(app, PATH, { params: {} }, asUser);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      success: true,
      data: { address, chainId: 43113, balance: formatEther(onChain) },
      metadata: { cached: false },
    });
    const again = await postJson(app, PATH, { params: {} }, asUser);
    expect(again.body).toMatchObject({ data: first.body.data, metadata: { cached: true } });
  });

  it('refuses a caller who only claims an address, with 401 UNVERIFIED_USER', async () => {
    // post: the app factory's own, with no session.
    const { status, body } = await post(
      app,
      PATH,
      { params: {} },
      { 'x-user-address': testChain.users[1].address },
    );
    expect(status).toBe(401);
    expect(body).toMatchObject({ success: false, data: { code: 'UNVERIFIED_USER' } });
  });

  it('answers a node that is down with RPC_ERROR, never its URL', async () => {
    // The same chain file (its tokens and contracts kept), the node on a port nothing listens on.
    const down = await createTestApp({
      env: { CHAIN_CONFIG_FILE: writeNodeDownChainFile(testChain) },
    });
    try {
      const { status, body } = await postJson(down, PATH, { params: {} });
      expect(status).toBe(500);
      expect(body).toMatchObject({ success: false, data: { code: 'RPC_ERROR' } });
      expect(JSON.stringify(body)).not.toContain('127.0.0.1');
    } finally {
      await down.close();
    }
  });
`,
  };
}
