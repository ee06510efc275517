/**
 * The svc Node.js client library. Consumer side: ContractValidator (validate, fixtures, consumer
 * registry, can-i-deploy) and the fetch/axios capture adapters. Producer side: ProducerTestKit and the
 * Express, Fastify and node:http middleware.
 */
export { ContractValidator } from './contract-validator';
export type {
  CallOptions,
  CanIDeployOptions,
  CompareCandidateOptions,
  CoverageOptions,
  GenerateOptions,
  PurgeRecordingsFilter,
  ListSchemasOptions,
  ProducerExchange,
  RegisterSchemaOptions,
  SchemaCallOptions,
} from './contract-validator';
export { CLIENT_DEFAULTS } from './client-options';
export { VALIDATE_MANY_DEFAULTS } from './validate-many';
export { INTERACTION_STREAM_DEFAULTS, InteractionStream } from './interaction-stream';
export type { ContractValidatorOptions, TlsOptions } from './client-options';
export { ContractValidatorError, isContractValidatorError } from './client-error';
export type { ClientErrorCode, GrpcStatusName } from './client-error';
export type * from './types';
export type { DeploymentInfo, DeploymentListing, DeploymentTarget, EnvironmentInfo } from './deploy-gate';
export { EMPTY_RECORDING_STATS, InteractionRecording, RECORDING_DEFAULTS } from './recording/interaction-recording';
export type { InteractionToRecord, RecordInteractionsOptions, RecordingStats } from './recording/interaction-recording';
export { DEFAULT_REDACTED_KEYS, REDACTED_VALUE, Redactor } from './recording/redaction';
export { trackReads } from './recording/read-tracking';
export type { ReadTracker } from './recording/read-tracking';

export { createFetchAdapter } from './adapters/fetch';
export type { FetchAdapter, FetchAdapterOptions } from './adapters/fetch';
export { createAxiosAdapter } from './adapters/axios';
export type { AxiosAdapter, AxiosLike } from './adapters/axios';
export { CAPTURE_DEFAULTS } from './adapters/interaction-recorder';
export type { CaptureOptions, InteractionCapture } from './adapters/interaction-recorder';
export { buildConsumerRegistration } from './consumer/build-consumer';
export type { ConsumerBuild, ResolvedAutoRegisterConfig } from './consumer/build-consumer';
export { createEndpointMatcher } from './consumer/path-templates';
export type { EndpointMatcher, EndpointTemplate } from './consumer/path-templates';
export { USED_FIELD_LIMITS } from './consumer/used-fields';

export { ProducerTestKit } from './producer-test-kit';
export type { ProducerResponseCheck, ProducerTestKitOptions } from './producer-test-kit';
export { createExpressMiddleware } from './middleware/express';
export type { ExpressMiddleware, ExpressRequestLike } from './middleware/express';
export { createFastifyPlugin } from './middleware/fastify';
export type { FastifyContractPlugin, FastifyInstanceLike, FastifyReplyLike, FastifyRequestLike } from './middleware/fastify';
export { wrapHttpHandler } from './middleware/node-http';
export type { HttpHandler, ValidatedHttpHandler } from './middleware/node-http';
export { MIDDLEWARE_DEFAULTS, UNDOCUMENTED_ROUTE_POLICIES, VALIDATION_MODES } from './middleware/middleware-options';
export type {
  ContractViolation,
  MiddlewareValidator,
  ProducerMiddlewareOptions,
  UndocumentedRoutePolicy,
  ValidationMode,
  ViolationLogger,
  ViolationPhase,
} from './middleware/middleware-options';
export type { ProducerValidationHandle, ProducerValidationStats, RejectionBody } from './middleware/producer-validation';
