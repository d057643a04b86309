import type { Artifact } from './contracts';
import { compileWithOpenZeppelin } from './oz-compile';

/** The ERC-721 of src/testing/evm/NftCollection.sol, built on @openzeppelin/contracts with solc-js. */
export function nftCollectionArtifact(): Artifact {
  // OpenZeppelin 5's ERC-721 uses mcopy (Cancun); Hardhat's network runs a later fork.
  return compileWithOpenZeppelin('NftCollection.sol', ['NftCollection'], 'cancun').NftCollection;
}
