/**
 * Loads proto/svc.proto once, with the loader options the generated types were made with.
 * The server and the client library both take their service definitions from here.
 */
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { ProtoGrpcType } from './generated/svc';
import type { ContractValidatorDefinition } from './generated/svc/ContractValidator';

/** Absolute path of the service's proto file (compiled code runs from dist/src/shared). */
export const PROTO_PATH = path.resolve(__dirname, '../../../proto/svc.proto');

/** Keep identical to the flags in scripts/generate-proto-types.mjs. */
export const PROTO_LOADER_OPTIONS: protoLoader.Options = Object.freeze({
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
});

export const SERVICE_NAME = 'svc.ContractValidator';

let cached: { packageDefinition: protoLoader.PackageDefinition; proto: ProtoGrpcType } | undefined;

export function loadSvcProto(): { packageDefinition: protoLoader.PackageDefinition; proto: ProtoGrpcType } {
  if (!cached) {
    const packageDefinition = protoLoader.loadSync(PROTO_PATH, PROTO_LOADER_OPTIONS);
    const proto = grpc.loadPackageDefinition(packageDefinition) as unknown as ProtoGrpcType;
    cached = { packageDefinition, proto };
  }
  return cached;
}

export function contractValidatorDefinition(): ContractValidatorDefinition {
  return loadSvcProto().proto.svc.ContractValidator.service;
}
