import { encodeFunctionData, parseAbiItem } from 'viem';
import { ERC721_SAFE_MINT } from '../erc721-mint.abi';
import { tokenUriOfMint } from './minted-uri';

const TO = '0x52908400098527886E0F7030069857D2E4169EE7';
const URI = `https://actions.example/nft/${'a'.repeat(64)}.json`;

describe('tokenUriOfMint', () => {
  it('reads the token URI of safeMint(to, uri) calldata', () => {
    const data = encodeFunctionData({ abi: [ERC721_SAFE_MINT], args: [TO, URI] });
    expect(tokenUriOfMint(data)).toBe(URI);
  });

  it('answers undefined for other calls and malformed calldata', () => {
    const transfer = parseAbiItem('function transfer(address to, uint256 amount)');
    expect(tokenUriOfMint(encodeFunctionData({ abi: [transfer], args: [TO, 1n] }))).toBeUndefined();
    expect(tokenUriOfMint('0x')).toBeUndefined();
    const data = encodeFunctionData({ abi: [ERC721_SAFE_MINT], args: [TO, URI] });
    expect(tokenUriOfMint(data.slice(0, 40) as `0x${string}`)).toBeUndefined();
  });
});
