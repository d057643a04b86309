export {
  ChainRegistry,
  declaredChains,
  describeChain,
  type ChainsDeclared,
} from './chain-registry';
export { ChainsModule } from './chains.module';
export { chainIdByName, MAX_CHAIN_TEXT, readChainValue, type ChainReading } from './chain-names';
export { KNOWN_CHAINS, knownChain, type KnownChain } from './known-chains';
export type { ChainInfo, PoolInfo, TokenInfo } from './chains.config';
