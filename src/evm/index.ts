/** Everything on-chain for teams: chains (registry, names, known chains) and transactions. */
export * from './chains';
export * from './transaction';
export { defaultTokenOptions, loadTransactionConfig } from './chains/chains.config';
