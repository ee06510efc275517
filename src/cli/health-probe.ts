/**
 * One readiness probe of `svc wait`: grpc.health.v1.Health/Check, answered SERVING or not.
 * Each probe opens a fresh channel, because a grpc-js channel that failed to connect backs off
 * (1 s, 1.6 s, 2.6 s ... up to 2 min) and would notice a server that came up long after it did.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { callMetadata, channelCredentials, resolveClientOptions } from '@svc/client/internal';
import { clientOptions, describeCallError, normalizeAddress, type ConnectionOptions } from './server-connection';

export type ProbeResult = { serving: true } | { serving: false; reason: string };

interface HealthClient extends grpc.Client {
  Check(
    request: { service: string },
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: (error: grpc.ServiceError | null, response?: { status: string }) => void,
  ): grpc.ClientUnaryCall;
}

type HealthClientConstructor = new (address: string, credentials: grpc.ChannelCredentials) => HealthClient;

let healthClientConstructor: HealthClientConstructor | undefined;

function loadHealthClient(): HealthClientConstructor {
  if (!healthClientConstructor) {
    const definition = protoLoader.loadSync(healthProtoPath, { keepCase: true, enums: String, defaults: true });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as { grpc: { health: { v1: { Health: HealthClientConstructor } } } };
    healthClientConstructor = loaded.grpc.health.v1.Health;
  }
  return healthClientConstructor;
}

/** `service` '' asks about the server as a whole. The probe never takes longer than `options.timeoutMs`. */
export function probeHealth(options: ConnectionOptions, service = ''): Promise<ProbeResult> {
  const Health = loadHealthClient();
  const address = normalizeAddress(options.address);
  const resolved = resolveClientOptions(clientOptions(address, options));
  const client = new Health(address, channelCredentials(resolved.tls));
  const deadline = new Date(Date.now() + options.timeoutMs);
  return new Promise<ProbeResult>((resolve) => {
    client.Check({ service }, callMetadata(resolved.apiKey), { deadline }, (error, response) => {
      client.close();
      if (error) resolve({ serving: false, reason: describeCallError(error, address, options.timeoutMs).message });
      else if (response?.status === 'SERVING') resolve({ serving: true });
      else resolve({ serving: false, reason: `health status ${response?.status ?? 'UNKNOWN'}` });
    });
  });
}
