import type { Address } from 'viem';
import { defaultTokenOptions } from '../../evm';
import { ActionParam, defineAction } from '../../kit';
import { POSITIVE_DECIMAL_PATTERN } from '../../evm';
import { WALLET_MINI_APP } from '../mini-apps';

const CHAINS = { source: 43113 };

export class SendTokenParams {
  @ActionParam({
    type: 'select',
    label: 'Token',
    required: true,
    options: defaultTokenOptions([CHAINS.source], { native: true }),
  })
  token!: string;

  @ActionParam({ type: 'address', label: 'Recipient', required: true })
  recipient!: Address;

  /** Text, not a number: it is converted to base units exactly, with the token's decimals. */
  @ActionParam({
    type: 'string',
    label: 'Amount',
    required: true,
    placeholder: '1.5',
    description: 'How much to send, in whole tokens (up to the token’s decimal places)',
    pattern: POSITIVE_DECIMAL_PATTERN,
    maxLength: 100,
  })
  amount!: string;
}

export const sendTokenAction = defineAction({
  label: 'Send tokens',
  description: 'Send the native coin or an ERC-20 token to an address',
  chains: CHAINS,
  path: '/api/send-token',
  /** With TX_FILL=estimate it asks the chain's RPC node for nonce, gas and fees. */
  callsOutside: true,
  miniApp: WALLET_MINI_APP,
  params: SendTokenParams,
  requiresUser: true,
  samples: [
    {
      params: {
        token: 'AVAX',
        recipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        amount: '0.1',
      },
      userAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    },
    {
      params: {
        token: 'USDC',
        recipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        amount: '2.5',
      },
      userAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    },
  ],
});
