/** grpc.health.v1.Health client for tests: `checkHealth(address)` → 'SERVING' | 'NOT_SERVING' | ... */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';

let HealthClient: grpc.ServiceClientConstructor | undefined;

export function checkHealth(address: string, service = '', credentials = grpc.credentials.createInsecure()): Promise<string> {
  HealthClient ??= (grpc.loadPackageDefinition(protoLoader.loadSync(protoPath, { keepCase: true, enums: String })) as any)
    .grpc.health.v1.Health as grpc.ServiceClientConstructor;
  const client = new HealthClient(address, credentials);
  return new Promise((resolve, reject) => {
    client.Check({ service }, { deadline: new Date(Date.now() + 5_000) }, (error: grpc.ServiceError | null, response: { status: string }) => {
      client.close();
      if (error) reject(error);
      else resolve(response.status);
    });
  });
}
