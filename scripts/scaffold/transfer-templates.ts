import { chainSetup } from './chain-setup';
import type { ModeTemplates, TemplateInput } from './templates';

/** Funded account 1 of the local chains (the development mnemonic): no one's real funds. */
const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
/** Account 3 of the development mnemonic: a recipient anybody may know. */
const RECIPIENT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

/**
 * `--mode transaction --transfer`: a plain ERC-20 transfer from the acting user, with a message
 * (a donation, a payment to a friend): `transfer(recipient, amount)` on the token itself, with no
 * contract between, so nothing needs approving; the kit checks the user's balance and that the
 * transfer lands before answering (`spend` without `spender`).
 */
export function transferTemplates({ names, miniAppConstant }: TemplateInput): ModeTemplates {
  const { kebab, pascal, camel, title } = names;
  return {
    action: `import type { Address } from 'viem';
import { POSITIVE_DECIMAL_PATTERN } from '../../evm';
import { ActionParam, defineAction } from '../../kit';
import { ${miniAppConstant} } from '../mini-apps';

export class ${pascal}Params {
  @ActionParam({
    type: 'select',
    label: 'Token',
    required: true,
    options: [
      { label: 'USDC', value: 'USDC' },
      { label: 'USDT', value: 'USDT' },
    ],
  })
  token!: string;

  /** Text, not a number: converted to base units exactly, with the token's decimals. */
  @ActionParam({
    type: 'string',
    label: 'Amount',
    required: true,
    placeholder: '5',
    description: 'How much of the token to send, in whole tokens',
    pattern: POSITIVE_DECIMAL_PATTERN,
    maxLength: 100,
  })
  amount!: string;

  @ActionParam({ type: 'address', label: 'Recipient', required: true })
  recipient!: Address;

  @ActionParam({
    type: 'string',
    label: 'Message',
    required: false,
    maxLength: 140,
    placeholder: 'Thanks for the coffee',
    description: 'Shown with the transfer; not written on the chain',
  })
  message?: string;
}

export const ${camel}Action = defineAction({
  label: '${title}',
  description: 'Sends an amount of a stablecoin from your wallet, with a message',
  chains: { source: 43113 },
  path: '/api/${kebab}',
  /** It reads the chain (the balance, the dry run): a 5xx is its answer when the node is down. */
  callsOutside: true,
  miniApp: ${miniAppConstant},
  params: ${pascal}Params,
  /** The transaction is the acting user's: the handler's context types \`userAddress\` as present. */
  requiresUser: true,
  samples: [
    {
      params: { token: 'USDC', amount: '5', recipient: '${RECIPIENT}', message: 'Thank you' },
      userAddress: '${USER}',
    },
  ],
});
`,
    service: `import { HttpStatus, Injectable } from '@nestjs/common';
import { erc20Abi } from 'viem';
import { toBaseUnits } from '../../evm';
import {
  ActionException,
  ChainRegistry,
  type ContextOf,
  type ExecutionResponse,
  TransactionBuilder,
} from '../../kit';
import { ${camel}Action, type ${pascal}Params } from './${kebab}.action';

/**
 * The sentence the wallet, the blink and the platform show for the transaction: the one way to
 * set it is \`display.args.summary\` (docs/chains-and-transactions.md#transaction-mode).
 */
export function transferSummary({ token, amount, recipient, message }: {
  token: string;
  amount: string;
  recipient: string;
  message?: string;
}): string {
  return 'Send ' + amount + ' ' + token + ' to ' + recipient + (message ? ': ' + message : '');
}

/** A transfer of the user's own tokens: nothing to approve, the balance is checked. */
@Injectable()
export class ${pascal}Service {
  constructor(
    private readonly chains: ChainRegistry,
    private readonly builder: TransactionBuilder,
  ) {}

  run(
    { token, amount, recipient, message }: ${pascal}Params,
    context: ContextOf<typeof ${camel}Action>,
  ): Promise<ExecutionResponse> {
    const chain = this.chains.forRequest(${camel}Action, context);
    const sent = this.chains.token(chain, token, 'token');
    if (!sent.address) {
      throw new ActionException(
        HttpStatus.SERVICE_UNAVAILABLE,
        chain.name + ' lists no ' + token + ' contract',
        { code: 'NOT_CONFIGURED' },
      );
    }
    const value = toBaseUnits(amount, { param: 'amount', ...sent });
    return this.builder.build(
      {
        chainId: chain.chainId,
        to: sent.address,
        // One function of viem's erc20Abi, named: transfer(recipient, amount).
        call: { abi: erc20Abi, functionName: 'transfer', args: [recipient, value] },
        // No spender: nothing takes the tokens for the user, so nothing to approve; the kit
        // checks the balance (INSUFFICIENT_BALANCE) and that the transfer lands.
        spend: { token: { ...sent, address: sent.address }, amount: value },
        // Beside the call's own args (recipient, amount in base units): what the user reads.
        display: {
          args: { token, message, summary: transferSummary({ token, amount, recipient, message }) },
        },
      },
      context,
    );
  }

  // To have this action's outcomes posted to a service of your own, with its message and
  // amount, declare a webhook in the action (docs/adding-an-action.md#an-actions-own-webhook);
  // to act on them here, add an @OnTransactionOutcome hook (docs/transaction-outcomes.md).
}
`,
    serviceSpec: `import { transferSummary } from './${kebab}.service';

describe('transferSummary', () => {
  const params = { token: 'USDC', amount: '5', recipient: '${RECIPIENT}' } as const;

  it('says what is sent to whom, and the message when there is one', () => {
    expect(transferSummary(params)).toBe('Send 5 USDC to ${RECIPIENT}');
    expect(transferSummary({ ...params, message: 'Thanks' })).toBe(
      'Send 5 USDC to ${RECIPIENT}: Thanks',
    );
  });
});
`,
    returns: { type: 'Promise<ExecutionResponse>', kitImport: 'type ExecutionResponse' },
    moduleImports: { names: 'TransactionModule', from: '../../kit' },
    e2eImports: `import { erc20Abi } from 'viem';
import type { ExecutionResponse } from '../../src/kit';
import { sendAnswer, startTestChain, type TestChain } from '../../src/testing';
`,
    e2eSetup: chainSetup(
      'A local chain passing for the declared chain (43113): tokens and funded users.',
    ),
    e2eTests: `
  it('answers the transfer with its message, and the recipient receives it when the user sends it', async () => {
    const [user, , recipient] = testChain.users;
    const balance = (): Promise<bigint> =>
      testChain.chain.publicClient.readContract({
        address: testChain.fixture.usdc,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [recipient.address],
      });
    const before = await balance();
    const { status, body } = await postJson<ExecutionResponse>(
      app,
      PATH,
      { params: { token: 'USDC', amount: '2.5', recipient: recipient.address, message: 'Thanks' } },
      { 'x-user-address': user.address },
    );
    expect(status).toBe(200);
    expect(body.params).toMatchObject({
      functionName: 'transfer',
      args: { recipient: recipient.address, amount: '2500000', token: 'USDC', message: 'Thanks' },
    });
    expect((await sendAnswer(testChain, user, body)).receipt.status).toBe('success');
    expect((await balance()) - before).toBe(2_500_000n);
  });

  it('refuses an amount above what the user holds, in words', async () => {
    const { status, body } = await postJson(
      app,
      PATH,
      { params: { token: 'USDC', amount: '5000', recipient: '${RECIPIENT}' } },
      { 'x-user-address': testChain.users[1].address },
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
  });

  it('refuses a request that names no acting user', async () => {
    const { status } = await postJson(app, PATH, {
      params: { token: 'USDC', amount: '1', recipient: '${RECIPIENT}' },
    });
    expect(status).toBe(400);
  });
`,
  };
}
