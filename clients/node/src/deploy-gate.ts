/**
 * Environments and recorded deployments as the client returns them (camelCase), and their
 * conversion from the service's messages. docs/deploy-gate.md tells how they gate deployments.
 */
import type { DeploymentInfo__Output } from './generated/svc/DeploymentInfo';
import type { EnvironmentInfo__Output } from './generated/svc/EnvironmentInfo';

export interface EnvironmentInfo {
  name: string;
  description: string;
  /** dev, staging and prod: always present. */
  builtIn: boolean;
  /** Unix seconds; 0 for the built-in ones. */
  createdAt: number;
  /** `built-in`, `created`, `deployment`, `consumer-registration` or `existing-registrations`. */
  origin: string;
}

export interface DeploymentInfo {
  schemaId: string;
  environment: string;
  /** Empty for the schema itself. */
  consumerId: string;
  /** Schema version, or the consumer's version; empty for an undeployment. */
  version: string;
  action: 'deployed' | 'undeployed';
  /** Unix seconds. */
  recordedAt: number;
  /** The API key name that recorded it (`anonymous` without authentication). */
  recordedBy: string;
  /** For a consumer: the schema version its deployed version was tested against. */
  schemaVersion: string;
}

export interface DeploymentListing {
  /** What runs now, one entry per environment and per consumer. */
  current: DeploymentInfo[];
  /** Newest first. */
  history: DeploymentInfo[];
}

/** What a deployment (or undeployment) to record names; `consumerId` when a consumer records its own. */
export interface DeploymentTarget {
  schemaId: string;
  environment: string;
  consumerId?: string;
}

export function toEnvironmentInfo(message: EnvironmentInfo__Output): EnvironmentInfo {
  return { name: message.name, description: message.description, builtIn: message.built_in, createdAt: message.created_at, origin: message.origin };
}

export function toDeploymentInfo(message: DeploymentInfo__Output): DeploymentInfo {
  return {
    schemaId: message.schema_id,
    environment: message.environment,
    consumerId: message.consumer_id,
    version: message.version,
    action: message.action === 'undeployed' ? 'undeployed' : 'deployed',
    recordedAt: message.recorded_at,
    recordedBy: message.recorded_by,
    schemaVersion: message.schema_version,
  };
}
