/** What the checks of one validation call share: where violations go and the contract's compiler and options. */
import type { ErrorReport } from './error-report';
import type { ContractOptions } from './options';
import type { SchemaCompiler } from './schema-compiler';

export interface CallContext {
  readonly compiler: SchemaCompiler;
  readonly options: Readonly<ContractOptions>;
  readonly report: ErrorReport;
  /** `GET /pets/{id}`: the operation being checked, for messages that name it. */
  readonly operation: string;
}
