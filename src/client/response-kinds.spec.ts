import { isDataResponse as coreIsData, isExecutionResponse } from '../contract/response-guards';
import { isDataResponse, isTransactionError, isTransactionResponse } from './response-kinds';

describe('client response guards', () => {
  it('are the server-side guards, not a second copy of their rules', () => {
    expect(isTransactionResponse).toBe(isExecutionResponse);
    expect(isDataResponse).toBe(coreIsData);
  });

  it('tell a transaction from a data envelope', () => {
    const tx = { serializedTransaction: '0x02', chainId: 43113 };
    const data = { success: true, data: { n: 1 } };
    expect([isTransactionResponse(tx), isDataResponse(tx)]).toEqual([true, false]);
    expect([isTransactionResponse(data), isDataResponse(data)]).toEqual([false, true]);
  });

  const tx = { serializedTransaction: '0x02', chainId: 43113 };
  it.each([
    [{ destinationChainId: 43114 }, true],
    [
      {
        destinationChainId: 43114,
        destinationGasLimit: '300000',
        destinationRecipient: '0x52908400098527886E0F7030069857D2E4169EE7',
        estimatedBridgeFee: '1000000000000000',
        destinationOperation: { functionName: 'deposit' },
      },
      true,
    ],
    [{}, false],
    [{ destinationChainId: '43114' }, false],
    [{ destinationChainId: 0 }, false],
    [{ destinationChainId: 43114, destinationGasLimit: 300000 }, true],
    [{ destinationChainId: 43114, destinationGasLimit: 1.5 }, false],
    [{ destinationChainId: 43114, destinationGasLimit: true }, false],
    [null, false],
  ])('knows the crossChain block: %j passes is %s', (crossChain, expected) => {
    expect(isTransactionResponse({ ...tx, crossChain })).toBe(expected);
  });

  it.each([
    [{ error: 'amount is required', code: 'VALIDATION_ERROR' }, true],
    [{ error: 'boom', code: 'INTERNAL_ERROR', details: 'stack-free detail' }, true],
    [{ error: 'x', code: 'X', success: false }, false],
    [{ error: 'x' }, false],
    [{ error: 1, code: 'X' }, false],
    [[{ error: 'x', code: 'X' }], false],
    [null, false],
    ['error', false],
  ])('isTransactionError(%j) is %s', (value, expected) => {
    expect(isTransactionError(value)).toBe(expected);
  });
});
