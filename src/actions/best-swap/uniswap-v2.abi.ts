import { parseAbi, parseAbiItem } from 'viem';

export const PAIR_ABI = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
]);

export const SWAP_EXACT_TOKENS_FOR_TOKENS = parseAbiItem(
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
);

/** Sells the native coin (sent as the value) through the router's wrapped-token pools. */
export const SWAP_EXACT_ETH_FOR_TOKENS = parseAbiItem(
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
);

/** Buys the native coin: the router unwraps what the last pool pays out. */
export const SWAP_EXACT_TOKENS_FOR_ETH = parseAbiItem(
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
);
