/**
 * ContractValidator: the Node.js client of the svc service. One gRPC channel per instance; the
 * instance is bound to the schema registered through it (or given in the options), so consumer tests
 * read `validate(request, response)` without repeating the schema id.
 *
 * Transport failures and refused operations throw ContractValidatorError; validation failures are
 * returned (`valid: false`), never thrown.
 */
import { ContractValidatorError, invalidUse } from './client-error';
import { positiveMs, resolveClientOptions, type ContractValidatorOptions } from './client-options';
import { buildConsumerRegistration } from './consumer/build-consumer';
import {
  toBreakingChange,
  toRegistrationWarning,
  toCanIDeployResult,
  toCompareResult,
  toConsumerInfo,
  toCoverageReport,
  toEndpointInfo,
  toEndpointUsageMessage,
  toGeneratedRequest,
  toGeneratedResponse,
  toSchemaMetadata,
  toValidationResult,
} from './results';
import { InteractionStream } from './interaction-stream';
import { InteractionRecording, type RecordInteractionsOptions } from './recording/interaction-recording';
import { toDeploymentInfo, toEnvironmentInfo, type DeploymentInfo, type DeploymentListing, type DeploymentTarget, type EnvironmentInfo } from './deploy-gate';
import { readSchemaSource } from './schema-source';
import { Transport } from './transport';
import type {
  AutoRegisterConfig,
  CanIDeployResult,
  CapturedInteraction,
  CompareResult,
  ConsumerInfo,
  CoverageReport,
  EndpointInfo,
  GeneratedFixture,
  GeneratedResponse,
  InteractionPair,
  RegisterConsumerOptions,
  SchemaContent,
  SchemaOwnership,
  SchemaPage,
  SchemaRegistration,
  ValidationRequest,
  ValidationResponse,
  ValidationResult,
} from './types';
import { validateMany } from './validate-many';
import { toRequestData, toResponseData } from './wire';
import type { GenerateFixtureResponse__Output } from './generated/svc/GenerateFixtureResponse';
import type { OutputType } from './generated/svc/OutputType';

export interface CallOptions {
  /** Deadline of this call; default the client's `deadlineMs`. */
  deadlineMs?: number;
}

/** Options of the calls that work on a schema: default the schema the client is bound to. */
export interface SchemaCallOptions extends CallOptions {
  schemaId?: string;
  /** Default: the bound version when the schema is the bound one, else the latest. */
  schemaVersion?: string;
}

export interface RegisterSchemaOptions extends CallOptions {
  /** Semantic version; default the document's `info.version`. */
  version?: string;
  ownership?: Partial<SchemaOwnership>;
  /** Report breaking changes against the previous version (the schema is registered anyway). */
  checkCompatibility?: boolean;
  /** Check first and register nothing when there are breaking changes (the call then throws REJECTED). */
  refuseBreakingChanges?: boolean;
  /** Check everything and store nothing; the client stays bound to what it was bound to. */
  dryRun?: boolean;
}

export interface CanIDeployOptions extends CallOptions {
  /** "No consumers registered in the environment" is unsafe instead of safe. */
  failIfNoConsumers?: boolean;
  /** Consumers seen in recorded traffic without a registration take part too (docs/evidence.md). */
  includeObserved?: boolean;
  /** A response change that none of a consumer's used fields reaches does not break that consumer. */
  fieldLevelImpact?: boolean;
  /** Do not replay recorded interactions against the checked version. */
  skipReplay?: boolean;
}

export interface CoverageOptions extends CallOptions {
  /** Default: the latest version. */
  schemaVersion?: string;
  /** Default: every environment. */
  environment?: string;
}

export interface PurgeRecordingsFilter extends CallOptions {
  schemaId?: string;
  consumerId?: string;
  environment?: string;
}

export interface CompareCandidateOptions extends CallOptions {
  /** Default: the latest registered version below the candidate's. */
  oldVersion?: string;
  /** The candidate's version; default its `info.version`. */
  newVersion?: string;
}

export interface GenerateOptions extends SchemaCallOptions {
  /** Response status to generate; default the first success status of the operation. */
  statusCode?: number;
  /** Use the schema's examples when they are valid; default true. */
  useExamples?: boolean;
  /** Default `application/json`. */
  contentType?: string;
}

export interface ListSchemasOptions extends CallOptions {
  pageSize?: number;
  pageToken?: string;
  owner?: string;
  team?: string;
}

/** A producer's response, with the request when path parameters matter. */
export interface ProducerExchange {
  method: string;
  path: string;
  response: ValidationResponse;
  /** Used only to extract path parameters. */
  request?: ValidationRequest;
}

export class ContractValidator {
  readonly #transport: Transport;
  readonly #address: string;
  readonly #deadlineMs: number;
  #schemaId: string | undefined;
  #schemaVersion: string | undefined;
  /** Interaction streams opened through this client and not yet closed; close() ends them. */
  readonly #streams = new Set<InteractionStream>();
  /** Recordings opened through this client and not yet closed; close() ends them. */
  readonly #recordings = new Set<InteractionRecording>();

  constructor(addressOrOptions?: string | ContractValidatorOptions) {
    const options = resolveClientOptions(addressOrOptions);
    this.#transport = new Transport(options);
    this.#address = options.address;
    this.#deadlineMs = options.deadlineMs;
    this.#schemaId = options.schemaId;
    this.#schemaVersion = options.schemaVersion;
  }

  /** The server address the client talks to. */
  get address(): string {
    return this.#address;
  }

  /** The schema the client is bound to (by registerSchema or the options). */
  get schemaId(): string | undefined {
    return this.#schemaId;
  }

  /** The bound version; undefined means the latest. */
  get schemaVersion(): string | undefined {
    return this.#schemaVersion;
  }

  /** Registers the document at `schemaPath` (file or http(s) URL, JSON or YAML) and binds the client to it. */
  async registerSchema(schemaId: string, schemaPath: string, options: RegisterSchemaOptions = {}): Promise<SchemaRegistration> {
    requireText('schemaId', schemaId);
    const content = await readSchemaSource(schemaPath);
    const ownership = options.ownership;
    const response = await this.#transport.unary('RegisterSchema', {
      schema_id: schemaId,
      schema_content: content,
      schema_version: options.version ?? '',
      ownership: ownership
        ? { owner: ownership.owner ?? '', team: ownership.team ?? '', contact_email: ownership.contactEmail ?? '', read_only: ownership.readOnly ?? false }
        : null,
      check_compatibility: options.checkCompatibility ?? false,
      refuse_breaking_changes: options.refuseBreakingChanges ?? false,
      dry_run: options.dryRun ?? false,
    }, this.#deadline(options));
    if (!response.success || !response.metadata) throw rejected('RegisterSchema', response.message);
    const metadata = toSchemaMetadata(response.metadata);
    if (!options.dryRun) {
      this.#schemaId = metadata.schemaId;
      this.#schemaVersion = metadata.schemaVersion;
    }
    return { message: response.message, metadata, breakingChanges: response.breaking_changes.map(toBreakingChange), warnings: response.warnings.map(toRegistrationWarning) };
  }

  registerSchemaWithVersion(schemaId: string, schemaPath: string, version: string, options: RegisterSchemaOptions = {}): Promise<SchemaRegistration> {
    requireText('version', version);
    return this.registerSchema(schemaId, schemaPath, { ...options, version });
  }

  /** Metadata and content of a registered schema; undefined when it (or the version) is not registered. */
  async getSchema(schemaId: string, version?: string, options: CallOptions = {}): Promise<SchemaContent | undefined> {
    requireText('schemaId', schemaId);
    const response = await this.#transport.unary('GetSchema', { schema_id: schemaId, schema_version: version ?? '' }, this.#deadline(options));
    if (!response.found || !response.metadata) return undefined;
    return { metadata: toSchemaMetadata(response.metadata), content: response.schema_content };
  }

  async listSchemas(options: ListSchemasOptions = {}): Promise<SchemaPage> {
    const response = await this.#transport.unary('ListSchemas', {
      page_size: options.pageSize ?? 0,
      page_token: options.pageToken ?? '',
      owner: options.owner ?? '',
      team: options.team ?? '',
    }, this.#deadline(options));
    return { schemas: response.schemas.map(toSchemaMetadata), nextPageToken: response.next_page_token, totalCount: response.total_count };
  }

  /** Consumer validation: the request and the response are both checked. */
  async validate(request: ValidationRequest, response: ValidationResponse, options: SchemaCallOptions = {}): Promise<ValidationResult> {
    const { schemaId, schemaVersion } = this.#schema(options);
    const result = await this.#transport.unary('ValidateInteraction', {
      schema_id: schemaId,
      schema_version: schemaVersion,
      request: toRequestData(request),
      response: toResponseData(response),
    }, this.#deadline(options));
    return toValidationResult(result);
  }

  /** Checks a request alone (ValidateInteraction without a response), for example before a handler runs. */
  async validateRequest(request: ValidationRequest, options: SchemaCallOptions = {}): Promise<ValidationResult> {
    const { schemaId, schemaVersion } = this.#schema(options);
    const result = await this.#transport.unary('ValidateInteraction', {
      schema_id: schemaId,
      schema_version: schemaVersion,
      request: toRequestData(request),
      response: null,
    }, this.#deadline(options));
    return toValidationResult(result);
  }

  /** Producer validation: only the response is checked. */
  async validateProducerResponse(exchange: ProducerExchange, options: SchemaCallOptions = {}): Promise<ValidationResult> {
    const { schemaId, schemaVersion } = this.#schema(options);
    const request = exchange.request ?? { method: exchange.method, path: exchange.path };
    const requestData = toRequestData(request);
    const result = await this.#transport.unary('ValidateProducerResponse', {
      schema_id: schemaId,
      schema_version: schemaVersion,
      method: requestData.method,
      path: exchange.path,
      response: toResponseData(exchange.response),
      request: exchange.request ? requestData : null,
    }, this.#deadline(options));
    return toValidationResult(result);
  }

  /**
   * Validates many interactions over one stream (ValidateInteractionStream); results come back in
   * the order of `pairs`. The deadline covers the whole batch.
   */
  async validateMany(pairs: Iterable<InteractionPair>, options: SchemaCallOptions = {}): Promise<ValidationResult[]> {
    const { schemaId, schemaVersion } = this.#schema(options);
    const requests = Array.from(pairs, ({ request, response }) => ({
      schema_id: schemaId,
      schema_version: schemaVersion,
      request: toRequestData(request),
      response: toResponseData(response),
    }));
    const results = await validateMany(this.#transport, requests, this.#deadline(options));
    return results.map(toValidationResult);
  }

  /**
   * A stream for validating interactions one at a time as they happen (request and response), at a
   * fraction of the per-call cost of `validate`: one long-lived ValidateInteractionStream call, opened
   * on first use and closed when idle. `deadlineMs` applies to each validation. Close it when done.
   */
  openInteractionStream(options: SchemaCallOptions & { idleCloseMs?: number } = {}): InteractionStream {
    const { schemaId, schemaVersion } = this.#schema(options);
    const stream: InteractionStream = new InteractionStream({
      onClose: () => this.#streams.delete(stream),
      transport: this.#transport,
      schemaId,
      schemaVersion,
      deadlineMs: this.#deadline(options),
      idleCloseMs: positiveMs('idleCloseMs', options.idleCloseMs),
    });
    this.#streams.add(stream);
    return stream;
  }

  /** Breaking changes between two versions: empty old means the previous version, empty new the latest. */
  async compareSchemas(schemaId: string, oldVersion?: string, newVersion?: string, options: CallOptions = {}): Promise<CompareResult> {
    requireText('schemaId', schemaId);
    const response = await this.#transport.unary('CompareSchemas', {
      schema_id: schemaId,
      old_version: oldVersion ?? '',
      new_version: newVersion ?? '',
    }, this.#deadline(options));
    if (response.message !== '' && !response.old_schema && !response.new_schema) throw rejected('CompareSchemas', response.message);
    return toCompareResult(response);
  }

  /** A request/response pair for `method` and the path template `path`, valid against the schema. */
  async generateFixture(method: string, path: string, options: GenerateOptions = {}): Promise<GeneratedFixture> {
    const response = await this.#generate(method, path, 'OUTPUT_FIXTURE', options);
    if (!response.fixture?.request || !response.fixture.response) throw rejected('GenerateFixture', 'the server sent no fixture');
    return { request: toGeneratedRequest(response.fixture.request), response: toGeneratedResponse(response.fixture.response) };
  }

  async generateResponse(method: string, path: string, options: GenerateOptions = {}): Promise<GeneratedResponse> {
    const response = await this.#generate(method, path, 'OUTPUT_RESPONSE', options);
    if (!response.response) throw rejected('GenerateFixture', 'the server sent no response');
    return toGeneratedResponse(response.response);
  }

  /** The generated request body, parsed from its JSON text (undefined when the operation takes none). */
  async generateRequestBody(method: string, path: string, options: GenerateOptions = {}): Promise<unknown> {
    const response = await this.#generate(method, path, 'OUTPUT_REQUEST', options);
    return toGeneratedRequest({ method, path, headers: {}, body: response.request_body }).body;
  }

  async listEndpoints(options: SchemaCallOptions = {}): Promise<EndpointInfo[]> {
    const { schemaId, schemaVersion } = this.#schema(options);
    const response = await this.#transport.unary('ListEndpoints', { schema_id: schemaId, schema_version: schemaVersion }, this.#deadline(options));
    return response.endpoints.map(toEndpointInfo);
  }

  async registerConsumer(registration: RegisterConsumerOptions, options: CallOptions = {}): Promise<ConsumerInfo> {
    if (registration === null || typeof registration !== 'object') throw invalidUse('registerConsumer needs an options object');
    requireText('consumerId', registration.consumerId);
    requireText('schemaId', registration.schemaId);
    const response = await this.#transport.unary('RegisterConsumer', {
      consumer_id: registration.consumerId,
      consumer_version: registration.consumerVersion ?? '',
      schema_id: registration.schemaId,
      schema_version: registration.schemaVersion ?? '',
      environment: registration.environment ?? '',
      used_endpoints: (registration.usedEndpoints ?? []).map(toEndpointUsageMessage),
    }, this.#deadline(options));
    if (!response.success || !response.consumer) throw rejected('RegisterConsumer', response.message);
    return toConsumerInfo(response.consumer);
  }

  async listConsumers(schemaId: string, environment?: string, options: CallOptions = {}): Promise<ConsumerInfo[]> {
    requireText('schemaId', schemaId);
    const response = await this.#transport.unary('ListConsumers', { schema_id: schemaId, environment: environment ?? '' }, this.#deadline(options));
    return response.consumers.map(toConsumerInfo);
  }

  /** Removes the registration `<consumerId>/<schemaId>/<environment>` (environment default `dev`). */
  async deregisterConsumer(consumerId: string, schemaId: string, environment?: string, options: CallOptions = {}): Promise<void> {
    requireText('consumerId', consumerId);
    requireText('schemaId', schemaId);
    const response = await this.#transport.unary('DeregisterConsumer', {
      consumer_id: consumerId,
      schema_id: schemaId,
      environment: environment ?? '',
    }, this.#deadline(options));
    if (!response.success) throw rejected('DeregisterConsumer', response.message);
  }

  /**
   * Would `newVersion` break a consumer registered in `environment` (default `prod`)? The changes are
   * counted from the version recorded as deployed there (`comparedWith` says which version was used).
   */
  async canIDeploy(schemaId: string, newVersion: string, environment?: string, options: CanIDeployOptions = {}): Promise<CanIDeployResult> {
    requireText('schemaId', schemaId);
    requireText('newVersion', newVersion);
    const response = await this.#transport.unary('CanIDeploy', {
      schema_id: schemaId,
      new_version: newVersion,
      environment: environment ?? '',
      ...evidenceFields(options),
    }, this.#deadline(options));
    return toCanIDeployResult(response);
  }

  /** can-i-deploy for a document that is not registered (a file or http(s) URL): check before publishing. */
  async canIDeployCandidate(schemaId: string, schemaPath: string, environment?: string, options: CanIDeployOptions & { version?: string } = {}): Promise<CanIDeployResult> {
    requireText('schemaId', schemaId);
    const content = await readSchemaSource(schemaPath);
    const response = await this.#transport.unary('CanIDeploy', {
      schema_id: schemaId,
      new_version: options.version ?? '',
      environment: environment ?? '',
      candidate_content: content,
      ...evidenceFields(options),
    }, this.#deadline(options));
    return toCanIDeployResult(response);
  }

  /** Breaking changes from a registered version to a document that is not registered (a file or http(s) URL). */
  async compareCandidate(schemaId: string, schemaPath: string, options: CompareCandidateOptions = {}): Promise<CompareResult> {
    requireText('schemaId', schemaId);
    const content = await readSchemaSource(schemaPath);
    const response = await this.#transport.unary('CompareSchemas', {
      schema_id: schemaId,
      old_version: options.oldVersion ?? '',
      new_version: options.newVersion ?? '',
      new_content: content,
    }, this.#deadline(options));
    if (response.message !== '' && !response.old_schema && !response.new_schema) throw rejected('CompareSchemas', response.message);
    return toCompareResult(response);
  }

  /** Creates an environment (dev, staging and prod always exist); resolves with it, whether new or already there. */
  async createEnvironment(name: string, description = '', options: CallOptions = {}): Promise<EnvironmentInfo> {
    requireText('name', name);
    const response = await this.#transport.unary('CreateEnvironment', { name, description }, this.#deadline(options));
    if (!response.success || !response.environment) throw rejected('CreateEnvironment', response.message);
    return toEnvironmentInfo(response.environment);
  }

  async listEnvironments(options: CallOptions = {}): Promise<EnvironmentInfo[]> {
    const response = await this.#transport.unary('ListEnvironments', {}, this.#deadline(options));
    return response.environments.map(toEnvironmentInfo);
  }

  /** Deletes an environment nothing is registered or deployed in any more. */
  async deleteEnvironment(name: string, options: CallOptions = {}): Promise<void> {
    requireText('name', name);
    const response = await this.#transport.unary('DeleteEnvironment', { name }, this.#deadline(options));
    if (!response.success) throw rejected('DeleteEnvironment', response.message);
  }

  /**
   * Records `version` as deployed in the environment: a schema version, or with `consumerId` the
   * consumer's own version (registered before, in any environment, with the schema version it was tested against).
   */
  async recordDeployment(target: DeploymentTarget, version: string, options: CallOptions = {}): Promise<DeploymentInfo> {
    requireTarget(target);
    requireText('version', version);
    const response = await this.#transport.unary('RecordDeployment', {
      schema_id: target.schemaId,
      environment: target.environment,
      consumer_id: target.consumerId ?? '',
      version,
    }, this.#deadline(options));
    if (!response.success || !response.deployment) throw rejected('RecordDeployment', response.message);
    return toDeploymentInfo(response.deployment);
  }

  /** Records that the schema (or the consumer) no longer runs in the environment. */
  async recordUndeployment(target: DeploymentTarget, options: CallOptions = {}): Promise<DeploymentInfo> {
    requireTarget(target);
    const response = await this.#transport.unary('RecordUndeployment', {
      schema_id: target.schemaId,
      environment: target.environment,
      consumer_id: target.consumerId ?? '',
    }, this.#deadline(options));
    if (!response.success || !response.deployment) throw rejected('RecordUndeployment', response.message);
    return toDeploymentInfo(response.deployment);
  }

  /** What is deployed now and the history (newest first) of a schema, in one environment or all. */
  async listDeployments(schemaId: string, options: CallOptions & { environment?: string; limit?: number } = {}): Promise<DeploymentListing> {
    requireText('schemaId', schemaId);
    const response = await this.#transport.unary('ListDeployments', {
      schema_id: schemaId,
      environment: options.environment ?? '',
      limit: options.limit ?? 0,
    }, this.#deadline(options));
    return { current: response.current.map(toDeploymentInfo), history: response.history.map(toDeploymentInfo) };
  }

  /**
   * Builds (without registering) the consumer registration that the interactions show: real paths
   * mapped to the schema's templates (ListEndpoints), response fields gathered per endpoint.
   * Asynchronous because the templates come from the server. Interactions that match no endpoint
   * of the schema are left out.
   */
  async buildConsumerFromInteractions(interactions: readonly CapturedInteraction[], config: AutoRegisterConfig): Promise<RegisterConsumerOptions> {
    if (config === null || typeof config !== 'object') throw invalidUse('config must be an object with consumerId and consumerVersion');
    const { schemaId, schemaVersion: boundVersion } = this.#schema({ schemaId: config.schemaId, schemaVersion: config.schemaVersion });
    const schemaVersion = boundVersion !== '' ? boundVersion : await this.#latestVersion(schemaId);
    const endpoints = await this.listEndpoints({ schemaId, schemaVersion });
    return buildConsumerRegistration(interactions, endpoints, { ...config, schemaId, schemaVersion }).registration;
  }

  async registerConsumerFromInteractions(interactions: readonly CapturedInteraction[], config: AutoRegisterConfig): Promise<ConsumerInfo> {
    return this.registerConsumer(await this.buildConsumerFromInteractions(interactions, config));
  }

  /**
   * Which operations and documented statuses of a schema version recorded traffic exercised, by which
   * consumers, how often and when last; never-exercised ones are listed with a zero count.
   */
  async getCoverage(schemaId: string, options: CoverageOptions = {}): Promise<CoverageReport> {
    requireText('schemaId', schemaId);
    const response = await this.#transport.unary('GetCoverage', {
      schema_id: schemaId,
      schema_version: options.schemaVersion ?? '',
      environment: options.environment ?? '',
    }, this.#deadline(options));
    return toCoverageReport(response);
  }

  /** Removes recorded usage and samples matching the filter (nothing given: everything); resolves with the rows removed. */
  async purgeRecordings(filter: PurgeRecordingsFilter = {}): Promise<number> {
    const response = await this.#transport.unary('PurgeRecordings', {
      schema_id: filter.schemaId ?? '',
      consumer_id: filter.consumerId ?? '',
      environment: filter.environment ?? '',
    }, this.#deadline(filter));
    if (!response.success) throw rejected('PurgeRecordings', response.message);
    return Number(response.removed);
  }

  /**
   * A background recording of interactions (RecordInteractions), as the middleware and the capture
   * adapters use with their `recordInteractions` option: bounded queue, redaction before sending,
   * one long-lived stream. Interactions of unknown validity are validated through this client first.
   */
  openRecording(options: RecordInteractionsOptions = {}): InteractionRecording {
    const recording: InteractionRecording = new InteractionRecording({
      transport: this.#transport,
      options,
      validate: (request, response, schemaId, schemaVersion) => this.validate(request, response, { schemaId, ...(schemaVersion === '' ? {} : { schemaVersion }) }),
      onClose: () => this.#recordings.delete(recording),
    });
    this.#recordings.add(recording);
    return recording;
  }

  /**
   * Closes the connection and every interaction stream opened through this client (the middleware's
   * among them), so nothing it opened keeps the process alive. Idempotent.
   */
  close(): void {
    for (const stream of [...this.#streams]) stream.close();
    for (const recording of [...this.#recordings]) recording.close();
    this.#transport.close();
  }

  async #latestVersion(schemaId: string): Promise<string> {
    const schema = await this.getSchema(schemaId);
    if (!schema) throw new ContractValidatorError('NOT_FOUND', `Schema not found: ${schemaId}`);
    return schema.metadata.schemaVersion;
  }

  async #generate(method: string, path: string, outputType: OutputType, options: GenerateOptions): Promise<GenerateFixtureResponse__Output> {
    requireText('method', method);
    requireText('path', path);
    const { schemaId, schemaVersion } = this.#schema(options);
    const response = await this.#transport.unary('GenerateFixture', {
      schema_id: schemaId,
      schema_version: schemaVersion,
      method: method.toUpperCase(),
      path,
      status_code: options.statusCode ?? 0,
      use_examples: options.useExamples ?? true,
      content_type: options.contentType ?? '',
      output_type: outputType,
    }, this.#deadline(options));
    if (!response.success) throw rejected('GenerateFixture', response.message);
    return response;
  }

  #schema(options: SchemaCallOptions): { schemaId: string; schemaVersion: string } {
    const schemaId = options.schemaId ?? this.#schemaId;
    if (schemaId === undefined || schemaId === '') {
      throw new ContractValidatorError('FAILED_PRECONDITION', 'no schema: call registerSchema first, or pass schemaId');
    }
    const boundVersion = schemaId === this.#schemaId ? this.#schemaVersion : undefined;
    return { schemaId, schemaVersion: options.schemaVersion ?? boundVersion ?? '' };
  }

  #deadline(options: CallOptions): number {
    return positiveMs('deadlineMs', options.deadlineMs) ?? this.#deadlineMs;
  }
}

function rejected(operation: string, message: string): ContractValidatorError {
  return new ContractValidatorError('REJECTED', message || `${operation} was refused without a message`);
}

function evidenceFields(options: CanIDeployOptions) {
  return {
    fail_if_no_consumers: options.failIfNoConsumers ?? false,
    include_observed: options.includeObserved ?? false,
    field_level_impact: options.fieldLevelImpact ?? false,
    skip_replay: options.skipReplay ?? false,
  };
}

function requireTarget(target: DeploymentTarget): void {
  if (target === null || typeof target !== 'object') throw invalidUse('the deployment target must be an object with schemaId and environment');
  requireText('schemaId', target.schemaId);
  requireText('environment', target.environment);
}

function requireText(name: string, value: unknown): void {
  if (typeof value !== 'string' || value === '') throw invalidUse(`${name} must be a non-empty string`);
}
