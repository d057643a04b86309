import { parseAbiItem } from 'viem';

/** What the configured collection must expose (OpenZeppelin's ERC721URIStorage with a public mint). */
export const ERC721_SAFE_MINT = parseAbiItem(
  'function safeMint(address to, string uri) returns (uint256)',
);
