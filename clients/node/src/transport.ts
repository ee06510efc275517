/**
 * The gRPC channel of one client: credentials (plain, TLS, mutual TLS), the API key metadata, per-call
 * deadlines, and the translation of every failure into a ContractValidatorError.
 */
import fs from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { API_KEY_METADATA_KEY, WIRE_LIMITS } from './protocol/wire-constants';
import { loadSvcProto } from './protocol/proto';
import type { ContractValidatorClient } from './generated/svc/ContractValidator';
import type { CanIDeployRequest } from './generated/svc/CanIDeployRequest';
import type { CanIDeployResponse__Output } from './generated/svc/CanIDeployResponse';
import type { CompareSchemasRequest } from './generated/svc/CompareSchemasRequest';
import type { CompareSchemasResponse__Output } from './generated/svc/CompareSchemasResponse';
import type { DeregisterConsumerRequest } from './generated/svc/DeregisterConsumerRequest';
import type { DeregisterConsumerResponse__Output } from './generated/svc/DeregisterConsumerResponse';
import type { GenerateFixtureRequest } from './generated/svc/GenerateFixtureRequest';
import type { GenerateFixtureResponse__Output } from './generated/svc/GenerateFixtureResponse';
import type { GetSchemaRequest } from './generated/svc/GetSchemaRequest';
import type { GetSchemaResponse__Output } from './generated/svc/GetSchemaResponse';
import type { InteractionRequest } from './generated/svc/InteractionRequest';
import type { ListConsumersRequest } from './generated/svc/ListConsumersRequest';
import type { ListConsumersResponse__Output } from './generated/svc/ListConsumersResponse';
import type { ListEndpointsRequest } from './generated/svc/ListEndpointsRequest';
import type { ListEndpointsResponse__Output } from './generated/svc/ListEndpointsResponse';
import type { ListSchemasRequest } from './generated/svc/ListSchemasRequest';
import type { ListSchemasResponse__Output } from './generated/svc/ListSchemasResponse';
import type { RegisterConsumerRequest } from './generated/svc/RegisterConsumerRequest';
import type { RegisterConsumerResponse__Output } from './generated/svc/RegisterConsumerResponse';
import type { RegisterSchemaRequest } from './generated/svc/RegisterSchemaRequest';
import type { RegisterSchemaResponse__Output } from './generated/svc/RegisterSchemaResponse';
import type { ValidateProducerRequest } from './generated/svc/ValidateProducerRequest';
import type { ValidationResult__Output } from './generated/svc/ValidationResult';
import type { CreateEnvironmentRequest } from './generated/svc/CreateEnvironmentRequest';
import type { CreateEnvironmentResponse__Output } from './generated/svc/CreateEnvironmentResponse';
import type { ListEnvironmentsRequest } from './generated/svc/ListEnvironmentsRequest';
import type { ListEnvironmentsResponse__Output } from './generated/svc/ListEnvironmentsResponse';
import type { DeleteEnvironmentRequest } from './generated/svc/DeleteEnvironmentRequest';
import type { DeleteEnvironmentResponse__Output } from './generated/svc/DeleteEnvironmentResponse';
import type { RecordDeploymentRequest } from './generated/svc/RecordDeploymentRequest';
import type { RecordDeploymentResponse__Output } from './generated/svc/RecordDeploymentResponse';
import type { RecordUndeploymentRequest } from './generated/svc/RecordUndeploymentRequest';
import type { RecordUndeploymentResponse__Output } from './generated/svc/RecordUndeploymentResponse';
import type { ListDeploymentsRequest } from './generated/svc/ListDeploymentsRequest';
import type { ListDeploymentsResponse__Output } from './generated/svc/ListDeploymentsResponse';
import type { GetCoverageRequest } from './generated/svc/GetCoverageRequest';
import type { GetCoverageResponse__Output } from './generated/svc/GetCoverageResponse';
import type { PurgeRecordingsRequest } from './generated/svc/PurgeRecordingsRequest';
import type { PurgeRecordingsResponse__Output } from './generated/svc/PurgeRecordingsResponse';
import type { RecordedInteraction } from './generated/svc/RecordedInteraction';
import type { RecordInteractionsResponse__Output } from './generated/svc/RecordInteractionsResponse';
import { ContractValidatorError, fromServiceError, invalidUse } from './client-error';
import type { ResolvedClientOptions } from './client-options';

/** Request and response message of each unary operation. */
export interface UnaryOperations {
  RegisterSchema: [RegisterSchemaRequest, RegisterSchemaResponse__Output];
  GetSchema: [GetSchemaRequest, GetSchemaResponse__Output];
  ListSchemas: [ListSchemasRequest, ListSchemasResponse__Output];
  ListEndpoints: [ListEndpointsRequest, ListEndpointsResponse__Output];
  CompareSchemas: [CompareSchemasRequest, CompareSchemasResponse__Output];
  GenerateFixture: [GenerateFixtureRequest, GenerateFixtureResponse__Output];
  ValidateInteraction: [InteractionRequest, ValidationResult__Output];
  ValidateProducerResponse: [ValidateProducerRequest, ValidationResult__Output];
  RegisterConsumer: [RegisterConsumerRequest, RegisterConsumerResponse__Output];
  ListConsumers: [ListConsumersRequest, ListConsumersResponse__Output];
  DeregisterConsumer: [DeregisterConsumerRequest, DeregisterConsumerResponse__Output];
  CanIDeploy: [CanIDeployRequest, CanIDeployResponse__Output];
  CreateEnvironment: [CreateEnvironmentRequest, CreateEnvironmentResponse__Output];
  ListEnvironments: [ListEnvironmentsRequest, ListEnvironmentsResponse__Output];
  DeleteEnvironment: [DeleteEnvironmentRequest, DeleteEnvironmentResponse__Output];
  RecordDeployment: [RecordDeploymentRequest, RecordDeploymentResponse__Output];
  RecordUndeployment: [RecordUndeploymentRequest, RecordUndeploymentResponse__Output];
  ListDeployments: [ListDeploymentsRequest, ListDeploymentsResponse__Output];
  GetCoverage: [GetCoverageRequest, GetCoverageResponse__Output];
  PurgeRecordings: [PurgeRecordingsRequest, PurgeRecordingsResponse__Output];
}

export type RecordingStream = grpc.ClientWritableStream<RecordedInteraction>;

export type ValidationStream = grpc.ClientDuplexStream<InteractionRequest, ValidationResult__Output>;

export class Transport {
  readonly #client: ContractValidatorClient;
  readonly #apiKey: string | undefined;
  #closed = false;

  constructor(options: ResolvedClientOptions) {
    const Client = loadSvcProto().proto.svc.ContractValidator;
    const channelOptions: grpc.ChannelOptions = {
      'grpc.max_receive_message_length': WIRE_LIMITS.maxGrpcMessageBytes,
      'grpc.max_send_message_length': WIRE_LIMITS.maxGrpcMessageBytes,
    };
    if (options.tls.serverNameOverride !== undefined) {
      channelOptions['grpc.ssl_target_name_override'] = options.tls.serverNameOverride;
      channelOptions['grpc.default_authority'] = options.tls.serverNameOverride;
    }
    this.#client = new Client(options.address, channelCredentials(options.tls), channelOptions);
    this.#apiKey = options.apiKey;
  }

  unary<K extends keyof UnaryOperations>(
    operation: K,
    request: UnaryOperations[K][0],
    deadlineMs: number,
  ): Promise<UnaryOperations[K][1]> {
    this.#assertOpen();
    const method = (this.#client as unknown as Record<string, Function>)[operation]!;
    return new Promise((resolve, reject) => {
      method.call(
        this.#client,
        request,
        this.#metadata(),
        { deadline: Date.now() + deadlineMs },
        (error: grpc.ServiceError | null, response: UnaryOperations[K][1]) => {
          if (error) reject(fromServiceError(error));
          else resolve(response);
        },
      );
    });
  }

  /**
   * Opens the bidirectional validation stream (no deadline: undefined); its 'error' events carry
   * grpc-js ServiceErrors.
   */
  validationStream(deadlineMs: number | undefined): ValidationStream {
    this.#assertOpen();
    return this.#client.ValidateInteractionStream(this.#metadata(), deadlineMs === undefined ? {} : { deadline: Date.now() + deadlineMs });
  }

  /**
   * Opens a RecordInteractions client stream (no deadline: it lives while there is traffic); the
   * callback gets the server's answer once the stream is ended, or the failure.
   */
  recordingStream(onAnswer: (error: ContractValidatorError | null, response?: RecordInteractionsResponse__Output) => void): RecordingStream {
    this.#assertOpen();
    return this.#client.RecordInteractions(this.#metadata(), {}, (error, response) => {
      if (error) onAnswer(fromServiceError(error));
      else onAnswer(null, response);
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Idempotent; calls already in flight are cancelled by grpc-js. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#client.close();
  }

  #metadata(): grpc.Metadata {
    return callMetadata(this.#apiKey);
  }

  #assertOpen(): void {
    if (this.#closed) throw new ContractValidatorError('FAILED_PRECONDITION', 'the client is closed');
  }
}

/** Plain, TLS or mutual-TLS credentials from the `tls` options (certificate files read now). */
export function channelCredentials(tls: ResolvedClientOptions['tls']): grpc.ChannelCredentials {
  if (!tls.enabled) return grpc.credentials.createInsecure();
  return grpc.credentials.createSsl(
    readPem('tls.rootCertPath', tls.rootCertPath),
    readPem('tls.keyPath', tls.keyPath),
    readPem('tls.certPath', tls.certPath),
  );
}

/** Call metadata carrying the API key, when there is one. */
export function callMetadata(apiKey: string | undefined): grpc.Metadata {
  const metadata = new grpc.Metadata();
  if (apiKey !== undefined) metadata.set(API_KEY_METADATA_KEY, apiKey);
  return metadata;
}

function readPem(option: string, file: string | undefined): Buffer | null {
  if (file === undefined) return null;
  try {
    return fs.readFileSync(file);
  } catch (error) {
    throw invalidUse(`cannot read ${option} "${file}": ${(error as Error).message}`, error);
  }
}
