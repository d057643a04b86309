import { decodeFunctionData, type Hex } from 'viem';
import { ERC721_SAFE_MINT } from '../erc721-mint.abi';

/**
 * The token URI a mint-nft transaction's calldata carries (`safeMint(to, uri)`), as the intent
 * of a confirmed mint records it; undefined for calldata of anything else.
 */
export function tokenUriOfMint(data: Hex): string | undefined {
  try {
    const { functionName, args } = decodeFunctionData({ abi: [ERC721_SAFE_MINT], data });
    return functionName === 'safeMint' ? args[1] : undefined;
  } catch {
    return undefined;
  }
}
