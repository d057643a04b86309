import { decodeFunctionData, parseTransaction } from 'viem';
import { loadTransactionConfig } from '../../evm/chains/chains.config';
import type { UserContext } from '../../kit';
import { TransactionBuilder } from '../../evm/transaction';
import { ERC20_TRANSFER } from './erc20.abi';
import type { SendTokenParams } from './send-token.action';
import { SendTokenService } from './send-token.service';
import { refusal } from '../../testing/action-refusal';
import { chainsUnderTest } from '../../testing/chain-registry.helper';

const USER = '0x52908400098527886E0F7030069857D2E4169EE7';
const RECIPIENT = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const FUJI_USDC = '0x5425890298aed601595a70AB815c96711a31Bc65';

function service(): SendTokenService {
  const { registry, rpc } = chainsUnderTest();
  return new SendTokenService(
    registry,
    new TransactionBuilder(registry, loadTransactionConfig({ TX_SIMULATE: 'off' }), rpc),
  );
}

const context = (sourceChain?: number): UserContext => ({
  requestId: 'r',
  userAddress: USER,
  sourceChain,
});
const params = (token: string, amount: string): SendTokenParams => ({
  token,
  recipient: RECIPIENT,
  amount,
});

describe('SendTokenService', () => {
  it('sends the native coin as a value transfer of the exact amount', async () => {
    const response = await service().build(params('AVAX', '1.000000000000000001'), context());
    const tx = parseTransaction(response.serializedTransaction as `0x02${string}`);
    expect(tx).toEqual({
      type: 'eip1559',
      chainId: 43113,
      to: RECIPIENT.toLowerCase(),
      nonce: 0,
      value: 10n ** 18n + 1n,
    });
    expect(response.abi).toBeUndefined();
    expect(response.params).toEqual({
      functionName: 'transfer',
      args: {
        to: RECIPIENT,
        value: '1000000000000000001',
        token: 'AVAX',
        amount: '1.000000000000000001',
      },
    });
  });

  it("calls transfer(recipient, amount) on an ERC-20 with the token's decimals", async () => {
    const response = await service().build(params('USDC', '12.345678'), context(43113));
    const tx = parseTransaction(response.serializedTransaction as `0x02${string}`);
    expect(tx.to).toBe(FUJI_USDC.toLowerCase());
    expect(tx.value).toBeUndefined();
    const call = decodeFunctionData({ abi: [ERC20_TRANSFER], data: tx.data! });
    expect(call).toEqual({ functionName: 'transfer', args: [RECIPIENT, 12_345_678n] });
    expect(response.abi).toEqual([ERC20_TRANSFER]);
    expect(response.params?.args).toEqual({
      to: RECIPIENT,
      value: '12345678',
      token: 'USDC',
      amount: '12.345678',
    });
  });

  it.each([
    ['USDC', '1.0000001', 'amount has 7 decimal places; USDC has 6', 'VALIDATION_ERROR'],
    ['USDC', '0.000', 'amount is zero; enter a positive amount', 'VALIDATION_ERROR'],
    ['WETH', '1', 'Unknown token WETH for token on Avalanche Fuji (chain 43113)', 'UNKNOWN_TOKEN'],
  ])('refuses %s %s with a 400 naming the problem', async (token, amount, message, code) => {
    const error = await refusal(() => service().build(params(token, amount), context()));
    expect([error.getStatus(), error.error, error.details.code]).toEqual([400, message, code]);
  });

  it('refuses a chain the action does not declare', async () => {
    const error = await refusal(() => service().build(params('USDC', '1'), context(31337)));
    expect([error.getStatus(), error.details.code]).toEqual([400, 'UNSUPPORTED_CHAIN']);
  });
});
