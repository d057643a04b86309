import { parseAbiItem } from 'viem';

export const ERC20_TRANSFER = parseAbiItem(
  'function transfer(address to, uint256 value) returns (bool)',
);
