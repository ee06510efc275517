/**
 * The public data types of the client library: camelCase views of the service's messages and the
 * shapes users hand in (interactions, options). Timestamps are Unix seconds, as on the wire.
 */

/** Header values as Node, fetch and the frameworks hand them out; normalised before sending. */
export type HttpHeaders = Readonly<Record<string, string | number | readonly string[] | undefined>>;

/**
 * An HTTP body. Strings (and bytes) are sent as they are, assumed to be already encoded (JSON text);
 * any other value is JSON-encoded once. `undefined` and `null` mean "no body".
 */
export type HttpBody = unknown;

export interface ValidationRequest {
  /** GET, POST, ... (any case). */
  method: string;
  /** The real path with actual values and an optional query string: `/users/42?expand=posts`. */
  path: string;
  headers?: HttpHeaders;
  body?: HttpBody;
}

export interface ValidationResponse {
  statusCode: number;
  headers?: HttpHeaders;
  body?: HttpBody;
}

export interface ValidationResult {
  valid: boolean;
  errors: string[];
  validatedAgainstVersion: string;
  validatedAgainstHash: string;
}

/** One request/response pair for `validateMany`. */
export interface InteractionPair {
  request: ValidationRequest;
  response: ValidationResponse;
}

export interface SchemaOwnership {
  owner: string;
  team: string;
  contactEmail: string;
  readOnly: boolean;
}

export interface SchemaMetadata {
  schemaId: string;
  schemaVersion: string;
  /** SHA-256 of the registered content. */
  schemaHash: string;
  registeredAt: number;
  updatedAt: number;
  ownership: SchemaOwnership | undefined;
  /** Detected OpenAPI version (a v2 document reports 3.0.0, its converted form). */
  openapiVersion: string;
  endpointCount: number;
}

export interface SchemaRegistration {
  message: string;
  metadata: SchemaMetadata;
  /** Filled when the registration asked for `checkCompatibility` and changes were found. */
  breakingChanges: BreakingChange[];
  /** What the server read leniently (ignored, relaxed, a pattern not enforced); empty for a clean document. */
  warnings: RegistrationWarning[];
}

/** One leniency of a registration (docs/real-world-documents.md lists every code). */
export interface RegistrationWarning {
  /** Stable kind, e.g. `PATTERN_NOT_ENFORCED`, `KEYWORD_IGNORED`. */
  code: string;
  /** JSON pointer into the registered document (its OpenAPI 3.0 form for Swagger 2.0); empty for the whole document. */
  pointer: string;
  message: string;
}

export interface SchemaContent {
  metadata: SchemaMetadata;
  /** The content exactly as it was registered. */
  content: string;
}

export interface SchemaPage {
  schemas: SchemaMetadata[];
  /** Pass as `pageToken` to get the next page; empty on the last page. */
  nextPageToken: string;
  totalCount: number;
}

export type BreakingChangeType =
  | 'BREAKING_CHANGE_UNSPECIFIED'
  | 'ENDPOINT_REMOVED'
  | 'REQUIRED_FIELD_ADDED'
  | 'TYPE_CHANGED'
  | 'REQUIRED_PARAMETER_ADDED'
  | 'RESPONSE_SCHEMA_CHANGED'
  | 'ENUM_VALUE_REMOVED';

export interface BreakingChange {
  type: BreakingChangeType;
  /** API path template (`/users/{id}`); empty when the change is not tied to a path. */
  path: string;
  method: string;
  description: string;
  oldValue: string;
  newValue: string;
}

export interface CompareResult {
  compatible: boolean;
  breakingChanges: BreakingChange[];
  oldSchema: SchemaMetadata | undefined;
  newSchema: SchemaMetadata | undefined;
}

export interface GeneratedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The body parsed from its JSON text; `undefined` when there is none. */
  body: unknown;
  /** The body text exactly as generated. */
  rawBody: string;
}

export interface GeneratedResponse {
  statusCode: number;
  headers: Record<string, string>;
  /** The body parsed from its JSON text; `undefined` when there is none. */
  body: unknown;
  /** The body text exactly as generated. */
  rawBody: string;
}

export interface GeneratedFixture {
  request: GeneratedRequest;
  response: GeneratedResponse;
}

export interface EndpointInfo {
  method: string;
  /** Path template as written in the schema (`/users/{id}`). */
  path: string;
  operationId: string;
  summary: string;
}

export interface EndpointUsage {
  method: string;
  /** API path template. */
  path: string;
  /** Response fields the consumer reads, as dot paths with `[]` for array items (`items[].id`). */
  usedFields: string[];
}

export interface RegisterConsumerOptions {
  consumerId: string;
  consumerVersion: string;
  schemaId: string;
  schemaVersion: string;
  /** Default `dev`. */
  environment?: string;
  usedEndpoints: EndpointUsage[];
}

export interface ConsumerInfo {
  consumerId: string;
  consumerVersion: string;
  schemaId: string;
  schemaVersion: string;
  environment: string;
  registeredAt: number;
  lastValidatedAt: number;
  usedEndpoints: EndpointUsage[];
}

export interface ConsumerImpact {
  consumerId: string;
  consumerVersion: string;
  /** The schema version the consumer was tested against. */
  currentSchemaVersion: string;
  environment: string;
  willBreak: boolean;
  relevantChanges: BreakingChange[];
  /** Recorded interactions of this consumer, valid against its version, that the checked version fails. */
  replayFailures: ReplayEvidence[];
  /** How many recorded interactions of this consumer were replayed. */
  replayedInteractions: number;
  /** True for a consumer known only from recorded traffic (no registration). */
  observed: boolean;
  /** With `fieldLevelImpact`: breaking changes set aside because none of the consumer's used fields reaches them. */
  unreachedChanges: BreakingChange[];
  /** Changes left out of `relevantChanges` and `unreachedChanges` (the server lists a bounded number); `willBreak` counts them all. */
  omittedChanges: number;
}

/** One recorded interaction that the checked version no longer accepts. */
export interface ReplayEvidence {
  method: string;
  /** The real path. */
  path: string;
  statusCode: number;
  /** The first violation messages. */
  errors: string[];
  /** Unix seconds when the interaction was last recorded. */
  recordedAt: number;
}

export interface CanIDeployResult {
  safeToDeploy: boolean;
  summary: string;
  breakingChanges: BreakingChange[];
  affectedConsumers: ConsumerImpact[];
  /** The version checked: the one asked about, or the version a candidate document would get. */
  checkedVersion: string;
  /** The version `breakingChanges` were counted from (empty when there is none). */
  comparedWithVersion: string;
  /** `deployed` (recorded as deployed in the environment), `previous` (nothing recorded there) or `none` (first version). */
  comparedWith: string;
  /** Recorded interactions replayed against the checked version, over all consumers. */
  replayedInteractions: number;
}

/** A consumer that exercised an operation and status (GetCoverage). */
export interface CoverageConsumer {
  consumerId: string;
  callCount: number;
  /** Unix seconds. */
  lastSeen: number;
  environment: string;
}

export interface StatusCoverage {
  /** A documented status (`200`, `4XX`, `default`) or an undocumented one seen in traffic. */
  status: string;
  documented: boolean;
  callCount: number;
  /** Unix seconds; 0 when never exercised. */
  lastSeen: number;
  consumers: CoverageConsumer[];
}

export interface OperationCoverage {
  method: string;
  path: string;
  operationId: string;
  callCount: number;
  statuses: StatusCoverage[];
}

/** Which operations and documented statuses real traffic exercised, by whom. */
export interface CoverageReport {
  schemaId: string;
  schemaVersion: string;
  /** Empty: every environment. */
  environment: string;
  operations: OperationCoverage[];
  /** Documented (operation, status) pairs exercised, of all documented pairs. */
  exercisedStatuses: number;
  documentedStatuses: number;
  coveragePercent: number;
  consumers: string[];
}

/** An HTTP exchange recorded by a client adapter (or assembled by hand). */
export interface CapturedInteraction {
  request: ValidationRequest;
  response: ValidationResponse;
  /** Set when the adapter validated the interaction (`autoValidate`). */
  validation?: ValidationResult;
  /**
   * Set when the adapter tracked the consumer's reads of the parsed response body: the field paths
   * the code read so far (dot paths with `[]`). Absent: not tracked, every received field counts.
   */
  readFields?: ReadonlySet<string>;
}

export interface AutoRegisterConfig {
  consumerId: string;
  consumerVersion: string;
  /** Default `dev`. */
  environment?: string;
  /** Default: the version the client is bound to, else the latest registered one. */
  schemaVersion?: string;
  /** Default: the schema the client is bound to. */
  schemaId?: string;
}
