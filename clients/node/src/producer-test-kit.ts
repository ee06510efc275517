/**
 * ProducerTestKit: for a provider's own test suite, checks the responses its handlers produce against
 * the registered schema (ValidateProducerResponse: the response only).
 */
import { invalidUse } from './client-error';
import type { TlsOptions } from './client-options';
import { ContractValidator, type CallOptions } from './contract-validator';
import type { ValidationRequest, ValidationResponse, ValidationResult } from './types';

export interface ProducerTestKitOptions {
  schemaId: string;
  /** Default the latest version. */
  schemaVersion?: string;
  /** Default `localhost:9550`. */
  serverAddress?: string;
  tls?: TlsOptions;
  apiKey?: string;
  deadlineMs?: number;
}

export interface ProducerResponseCheck {
  method: string;
  /** The real path (`/users/42`), from which path parameters are read. */
  path: string;
  response: ValidationResponse;
  /** Optional: the request that produced the response (its headers and query matter to some operations). */
  request?: ValidationRequest;
}

export class ProducerTestKit {
  readonly #validator: ContractValidator;

  constructor(options: ProducerTestKitOptions) {
    if (options === null || typeof options !== 'object' || typeof options.schemaId !== 'string' || options.schemaId === '') {
      throw invalidUse('ProducerTestKit needs an options object with a non-empty schemaId');
    }
    this.#validator = new ContractValidator({
      address: options.serverAddress,
      tls: options.tls,
      apiKey: options.apiKey,
      deadlineMs: options.deadlineMs,
      schemaId: options.schemaId,
      schemaVersion: options.schemaVersion,
    });
  }

  get address(): string {
    return this.#validator.address;
  }

  get schemaId(): string {
    return this.#validator.schemaId!;
  }

  async validateResponse(check: ProducerResponseCheck, options: CallOptions = {}): Promise<ValidationResult> {
    if (check === null || typeof check !== 'object') throw invalidUse('validateResponse needs { method, path, response }');
    return this.#validator.validateProducerResponse(check, options);
  }

  /** Idempotent. */
  close(): void {
    this.#validator.close();
  }
}
