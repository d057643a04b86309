export { fromBaseUnits, POSITIVE_DECIMAL_PATTERN, toBaseUnits, type AmountUnit } from './amounts';
export { ChainRpc, rpcFailureKind, type RpcFailureKind } from '../chains/chain-rpc';
export { checkRpcAnswers, RpcAnswerError } from '../chains/rpc-answers';
export {
  choosePool,
  constantProductOut,
  type PoolQuote,
  type PoolReserves,
} from './constant-product';
export {
  TransactionBuilder,
  type ContractCall,
  type CrossChainSpec,
  type TransactionSpec,
} from './transaction-builder';
export type {
  CandidatePick,
  CandidatePlan,
  CandidateRun,
  ChainRead,
  CheckedCandidates,
} from './candidates';
export { TransactionModule } from './transaction.module';
export {
  displayValue,
  fromWagmiJson,
  parseSerialized,
  serializeUnsigned,
  toWagmiJson,
  type TransactionFormat,
  type UnsignedTransaction,
} from './tx-serialization';
export { holdsCall, newAnswerTag, tagsIn, withTag } from './answer-tag';
