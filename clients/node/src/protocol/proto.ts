/**
 * Loads proto/svc.proto once, with the loader options the generated types were made with.
 * The client and the server both take their service definitions from here, so they cannot disagree.
 */
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { ProtoGrpcType } from '../generated/svc';
import type { ContractValidatorDefinition } from '../generated/svc/ContractValidator';

/** The proto file shipped inside this package (copied from the repository's proto/ by the build; compiled code runs from dist/protocol). */
export const PROTO_PATH = path.resolve(__dirname, '../../proto/svc.proto');

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
