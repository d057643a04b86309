import { chainSetup } from './chain-setup';
import type { ModeTemplates, TemplateInput } from './templates';

/** Funded accounts 1 and 2 of the local chains (the development mnemonic): no one's real funds. */
const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/**
 * The answer of a balance reader, and the plain function its unit spec tests: shared by the
 * reader of any address and the verified reader of the signed-in user's own.
 */
export function balanceAnswer(pascal: string): string {
  return `/** What the action answers in \`data\`. */
export interface ${pascal}Answer {
  address: Address;
  chainId: number;
  symbol: string;
  /** Whole coins, as exact decimal text. */
  balance: string;
}

/** Balances change with every block: a few seconds spare the node without showing stale ones. */
export const CACHE_SECONDS = 5;

/** The answer for a balance read in base units. */
export function describeBalance(
  address: Address,
  chain: { chainId: number; native: { symbol: string; decimals: number } },
  wei: bigint,
): { data: ${pascal}Answer; message: string } {
  const balance = fromBaseUnits(wei, chain.native.decimals);
  const { symbol } = chain.native;
  return {
    data: { address, chainId: chain.chainId, symbol, balance },
    message: address + ' holds ' + balance + ' ' + symbol,
  };
}`;
}

/** The unit spec of describeBalance. */
export function balanceSpec(kebab: string): string {
  return `import { describeBalance } from './${kebab}.service';

describe('describeBalance', () => {
  const chain = { chainId: 43113, native: { symbol: 'AVAX', decimals: 18 } };

  it('answers the balance in whole coins, exactly', () => {
    const answer = describeBalance('${USER}', chain, 10n ** 18n + 1n);
    expect(answer).toEqual({
      data: {
        address: '${USER}',
        chainId: 43113,
        symbol: 'AVAX',
        balance: '1.000000000000000001',
      },
      message: '${USER} holds 1.000000000000000001 AVAX',
    });
  });
});
`;
}

/**
 * A data-mode action that reads the chain: an address's balance of the native coin, read through
 * the kit's safe chain read (`ChainRegistry.read`) and kept a few seconds in the result cache.
 */
export function chainTemplates({ names, miniAppConstant }: TemplateInput): ModeTemplates {
  const { kebab, pascal, camel, title } = names;
  return {
    action: `import type { Address } from 'viem';
import { ActionParam, defineAction } from '../../kit';
import { ${miniAppConstant} } from '../mini-apps';

export class ${pascal}Params {
  @ActionParam({ type: 'address', label: 'Address', required: true })
  address!: Address;
}

export const ${camel}Action = defineAction({
  label: '${title}',
  description: 'Reads the balance of an address in the chain’s native coin',
  chains: { source: 43113 },
  path: '/api/${kebab}',
  miniApp: ${miniAppConstant},
  params: ${pascal}Params,
  responseType: 'data',
  /** It reads the chain's RPC node: a 5xx is its answer when the node is down. */
  callsOutside: true,
  samples: [{ params: { address: '${USER}' } }],
});
`,
    service: `import { Injectable } from '@nestjs/common';
import type { Address } from 'viem';
import { fromBaseUnits } from '../../evm';
import { type ActionResult, ChainRegistry, type RequestContext, ResultCache } from '../../kit';
import { ${camel}Action, type ${pascal}Params } from './${kebab}.action';

${balanceAnswer(pascal)}

@Injectable()
export class ${pascal}Service {
  constructor(
    private readonly chains: ChainRegistry,
    private readonly cache: ResultCache,
  ) {}

  async run(
    { address }: ${pascal}Params,
    context: RequestContext,
  ): Promise<ActionResult<${pascal}Answer>> {
    // The request's chain (a chain the action does not declare is already a 400).
    const chain = this.chains.forRequest(${camel}Action, context);
    const key = '${kebab}:' + chain.chainId + ':' + address.toLowerCase();
    // The safe read: a failing node is a 500 RPC_ERROR naming the chain, never viem's text
    // (which carries the node's URL). Cached values come back JSON-safe: the bigint as text.
    const { value, cached } = await this.cache.getOrCompute(
      key,
      () => this.chains.read(chain, 'balance', (client) => client.getBalance({ address })),
      CACHE_SECONDS,
    );
    return { ...describeBalance(address, chain, BigInt(value)), metadata: { cached } };
  }
}
`,
    serviceSpec: balanceSpec(kebab),
    returns: {
      type: `Promise<ActionResult<${pascal}Answer>>`,
      kitImport: 'type ActionResult',
      serviceImport: `type ${pascal}Answer, `,
    },
    e2eImports: `import { formatEther } from 'viem';
import { startTestChain, type TestChain, writeNodeDownChainFile } from '../../src/testing';
`,
    e2eSetup: chainSetup(
      'A local chain passing for the declared chain (43113), with funded users and its chain file.',
    ),
    e2eTests: `
  it('answers the balance the chain holds, then the same from the cache', async () => {
    const address = testChain.users[1].address;
    const onChain = await testChain.chain.publicClient.getBalance({ address });
    const first = await postJson(app, PATH, { params: { address } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      success: true,
      data: { address, chainId: 43113, balance: formatEther(onChain) },
      metadata: { cached: false },
    });
    const again = await postJson(app, PATH, { params: { address } });
    expect(again.body).toMatchObject({ data: first.body.data, metadata: { cached: true } });
  });

  it('answers a node that is down with RPC_ERROR, never its URL', async () => {
    // The same chain file (its tokens and contracts kept), the node on a port nothing listens on.
    const down = await createTestApp({
      env: { CHAIN_CONFIG_FILE: writeNodeDownChainFile(testChain) },
    });
    try {
      const { status, body } = await postJson(down, PATH, {
        params: { address: testChain.users[1].address },
      });
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
