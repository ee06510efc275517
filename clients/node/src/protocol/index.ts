/**
 * `@svc/client/protocol`: the wire contract shared by the client and the server: the proto loader,
 * the service name, wire constants and the generated message types.
 */
export { PROTO_LOADER_OPTIONS, PROTO_PATH, SERVICE_NAME, contractValidatorDefinition, loadSvcProto } from './proto';
export { API_KEY_METADATA_KEY, DEFAULT_CONSUMER_ENVIRONMENT, DEFAULT_DEPLOY_ENVIRONMENT, WIRE_LIMITS, formatBytes } from './wire-constants';
export type { ProtoGrpcType } from '../generated/svc';
export * from '../generated/messages';
