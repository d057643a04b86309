import type { Address } from 'viem';
import { defaultTokenOptions } from '../../config/chains.config';
import { ActionParam, defineAction, POSITIVE_DECIMAL_PATTERN } from '../../core';
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
});
