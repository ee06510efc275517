export { CompiledContract, NOT_PREPARED, type PreparedOnly } from './compiled-contract';
export { compilingTimeMs } from './schema-compiler';
export type {
  HttpRequestInput,
  HttpResponseInput,
  InteractionInput,
  ProducerResponseInput,
  ValidationOutcome,
  ErrorCategory,
} from './types';
export { DEFAULT_CONTRACT_OPTIONS, resolveContractOptions, type ContractOptions } from './options';
