import { chainSetup } from './chain-setup';
import type { ModeTemplates, TemplateInput } from './templates';

/** Test wallets of the local chains (Hardhat's first two accounts): no one's real funds. */
const USER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/**
 * A transaction-mode action: the acting user sends an amount of the chain's native coin, built by
 * the kit's TransactionBuilder. Without TX_FILL it calls no RPC node (the wallet fills the gas).
 */
export function transactionTemplates({ names, miniAppConstant }: TemplateInput): ModeTemplates {
  const { kebab, pascal, camel, title } = names;
  return {
    action: `import type { Address } from 'viem';
import { POSITIVE_DECIMAL_PATTERN } from '../../evm';
import { ActionParam, defineAction } from '../../kit';
import { ${miniAppConstant} } from '../mini-apps';

export class ${pascal}Params {
  @ActionParam({ type: 'address', label: 'Recipient', required: true })
  recipient!: Address;

  /** Text, not a number: converted to base units exactly, with the native coin's decimals. */
  @ActionParam({
    type: 'string',
    label: 'Amount',
    required: true,
    placeholder: '0.1',
    description: 'How much of the native coin to send, in whole coins',
    pattern: POSITIVE_DECIMAL_PATTERN,
    maxLength: 100,
  })
  amount!: string;
}

export const ${camel}Action = defineAction({
  label: '${title}',
  description: 'Sends an amount of the native coin from your wallet to an address',
  chains: { source: 43113 },
  path: '/api/${kebab}',
  /** With TX_FILL=estimate the builder asks the chain's RPC node for nonce, gas and fees. */
  callsOutside: true,
  miniApp: ${miniAppConstant},
  params: ${pascal}Params,
  /** The transaction is the acting user's: the handler's context types \`userAddress\` as present. */
  requiresUser: true,
  samples: [
    {
      params: { recipient: '${RECIPIENT}', amount: '0.1' },
      userAddress: '${USER}',
    },
  ],
});
`,
    service: `import { Injectable } from '@nestjs/common';
import { toBaseUnits } from '../../evm';
import {
  ChainRegistry,
  type ContextOf,
  type ExecutionResponse,
  TransactionBuilder,
} from '../../kit';
import { ${camel}Action, type ${pascal}Params } from './${kebab}.action';

/** A plain value transfer of the chain's native coin, signed by the acting user. */
@Injectable()
export class ${pascal}Service {
  constructor(
    private readonly chains: ChainRegistry,
    private readonly builder: TransactionBuilder,
  ) {}

  run(
    { recipient, amount }: ${pascal}Params,
    context: ContextOf<typeof ${camel}Action>,
  ): Promise<ExecutionResponse> {
    const chain = this.chains.forRequest(${camel}Action, context);
    const value = toBaseUnits(amount, { param: 'amount', ...chain.native });
    // No \`from\`: the builder signs for the acting user of the context.
    return this.builder.build(
      {
        chainId: chain.chainId,
        to: recipient,
        value,
        display: {
          functionName: 'transfer',
          args: { to: recipient, value, amount, token: chain.native.symbol },
        },
      },
      context,
    );
  }

  // To act once the user's transaction settles (docs/transaction-outcomes.md), add a hook here
  // (this service is a provider of the module), importing from '../../outcomes':
  //
  //   @OnTransactionOutcome(${camel}Action, 'confirmed')
  //   confirmed({ intent }: TransactionOutcome): void {
  //     // runs once per intent, across replicas, retried while it throws
  //   }
}
`,
    serviceSpec: `import { parseTransaction } from 'viem';
import { loadTransactionConfig } from '../../evm';
import { TransactionBuilder, type UserContext } from '../../kit';
import { refusal } from '../../testing/action-refusal';
import { chainsUnderTest } from '../../testing/chain-registry.helper';
import { ${pascal}Service } from './${kebab}.service';

const context: UserContext = { requestId: 'r', userAddress: '${USER}' };
const RECIPIENT = '${RECIPIENT}';

/**
 * The service over the chains as the test configuration has them, with no RPC call: the checks
 * against the chain (TX_SIMULATE) are the e2e spec's, on a local chain.
 */
function service(): ${pascal}Service {
  const { registry, rpc } = chainsUnderTest();
  return new ${pascal}Service(
    registry,
    new TransactionBuilder(registry, loadTransactionConfig({ TX_SIMULATE: 'off' }), rpc),
  );
}

describe('${pascal}Service', () => {
  it('sends exactly the amount of the native coin to the recipient', async () => {
    const response = await service().run(
      { recipient: RECIPIENT, amount: '1.000000000000000001' },
      context,
    );
    const tx = parseTransaction(response.serializedTransaction as \`0x02\${string}\`);
    expect(tx).toMatchObject({ chainId: 43113, to: RECIPIENT.toLowerCase(), value: 10n ** 18n + 1n });
    expect(response.params).toMatchObject({
      functionName: 'transfer',
      args: { to: RECIPIENT, value: '1000000000000000001', amount: '1.000000000000000001' },
    });
  });

  it('refuses more decimal places than the coin has, naming amount', async () => {
    const error = await refusal(() =>
      service().run({ recipient: RECIPIENT, amount: '0.0000000000000000001' }, context),
    );
    expect(error.getStatus()).toBe(400);
    expect(error.details.data).toEqual({ invalidParams: ['amount'] });
  });
});
`,
    returns: { type: 'Promise<ExecutionResponse>', kitImport: 'type ExecutionResponse' },
    moduleImports: { names: 'TransactionModule', from: '../../kit' },
    e2eImports: `import { parseTransaction } from 'viem';
import type { ExecutionResponse } from '../../src/kit';
import { sendAnswer, startTestChain, type TestChain } from '../../src/testing';
`,
    e2eSetup: chainSetup(
      'The declared chain, local: the kit checks every transaction lands before answering it.',
    ),
    e2eTests: `
  it("builds the acting user's transfer of the amount to the recipient", async () => {
    const recipient = '${RECIPIENT}';
    const { status, body } = await postJson<ExecutionResponse>(
      app,
      PATH,
      { params: { recipient, amount: '0.5' } },
      { 'x-user-address': '${USER}' },
    );
    expect(status).toBe(200);
    expect(body.chainId).toBe(43113);
    const tx = parseTransaction(body.serializedTransaction as \`0x02\${string}\`);
    expect(tx).toMatchObject({ to: recipient.toLowerCase(), value: 5n * 10n ** 17n });
  });

  it('answers a transfer that lands when the user signs and sends it', async () => {
    const [user, recipient] = testChain.users;
    const before = await testChain.chain.publicClient.getBalance({ address: recipient.address });
    const { body } = await postJson<ExecutionResponse>(
      app,
      PATH,
      { params: { recipient: recipient.address, amount: '0.25' } },
      { 'x-user-address': user.address },
    );
    expect((await sendAnswer(testChain, user, body)).receipt.status).toBe('success');
    const after = await testChain.chain.publicClient.getBalance({ address: recipient.address });
    expect(after - before).toBe(25n * 10n ** 16n);
  });

  it('refuses a request that names no acting user', async () => {
    const { status } = await postJson(app, PATH, {
      params: { recipient: '${RECIPIENT}', amount: '0.5' },
    });
    expect(status).toBe(400);
  });
`,
  };
}
