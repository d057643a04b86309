import { Injectable } from '@nestjs/common';
import {
  ChainRegistry,
  type ExecutionResponse,
  type ContextOf,
  TransactionBuilder,
} from '../../kit';
import { fromBaseUnits, toBaseUnits } from '../../evm';
import { ERC20_TRANSFER } from './erc20.abi';
import { sendTokenAction, type SendTokenParams } from './send-token.action';

/**
 * Native coin: a plain value transfer; ERC-20: `transfer(recipient, amount)` on the token. The kit
 * checks either lands (balance, gas, the token's own rules) before answering.
 */
@Injectable()
export class SendTokenService {
  constructor(
    private readonly chains: ChainRegistry,
    private readonly builder: TransactionBuilder,
  ) {}

  build(
    { token: symbol, recipient, amount }: SendTokenParams,
    context: ContextOf<typeof sendTokenAction>,
  ): Promise<ExecutionResponse> {
    const chain = this.chains.forRequest(sendTokenAction, context);
    const token = this.chains.token(chain, symbol, 'token');
    const units = toBaseUnits(amount, { param: 'amount', ...token });
    const shown = { token: token.symbol, amount: fromBaseUnits(units, token.decimals) };
    const common = { chainId: chain.chainId };
    if (token.native || !token.address) {
      return this.builder.build(
        {
          ...common,
          to: recipient,
          value: units,
          display: { functionName: 'transfer', args: { to: recipient, value: units, ...shown } },
        },
        context,
      );
    }
    return this.builder.build(
      {
        ...common,
        to: token.address,
        call: { abi: ERC20_TRANSFER, args: [recipient, units] },
        spend: { token: { ...token, address: token.address }, amount: units },
        display: { args: shown },
      },
      context,
    );
  }
}
