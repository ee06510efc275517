/**
 * Input rules for identifiers: schema ids, consumer ids, environments and semantic versions.
 * Each check returns the clear message of the first problem, so the server, the CLI and the client
 * report the same words.
 */
import semver from 'semver';
import { LIMITS } from './limits';
import { invalidArgument } from './errors';
import { clip } from './text';

/** How much of a refused identifier a message quotes. */
const MAX_QUOTED_CHARS = 64;

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const ENVIRONMENT_PATTERN = /^[a-z0-9-]{1,63}$/;

/** `checkIdentifier` without the message: for a hot path that only tells valid from not. */
export function isIdentifier(value: string, maxLength = LIMITS.maxIdLength): boolean {
  return value !== '' && value.length <= maxLength && ID_PATTERN.test(value);
}

/** Schema and consumer ids: letters, digits, '.', '_', '-', starting with a letter or digit. */
export function checkIdentifier(field: string, value: string, maxLength = LIMITS.maxIdLength): void {
  if (value === '') throw invalidArgument(`${field} is required`);
  if (value.length > maxLength) {
    throw invalidArgument(`${field} is ${value.length} characters, over the limit of ${maxLength} (maxIdLength)`);
  }
  if (!ID_PATTERN.test(value)) {
    throw invalidArgument(
      `${field} "${value}" is not valid: use letters, digits, '.', '_' and '-', starting with a letter or digit`,
    );
  }
}

/** The environments every server knows (spec: "Environment (dev, staging, prod)"); they cannot be deleted. */
export const BUILT_IN_ENVIRONMENTS: readonly string[] = Object.freeze(['dev', 'staging', 'prod']);

export function isBuiltInEnvironment(name: string): boolean {
  return BUILT_IN_ENVIRONMENTS.includes(name);
}

/** Environments: lowercase letters, digits and '-', 1 to 63 characters (dev, staging, prod, ...). */
export function checkEnvironment(field: string, value: string): void {
  if (!ENVIRONMENT_PATTERN.test(value)) {
    throw invalidArgument(
      `${field} "${clip(value, MAX_QUOTED_CHARS)}" is not valid: use 1 to 63 lowercase letters, digits and '-' (for example dev, staging, prod)`,
    );
  }
}

/** True for a strict semantic version such as 1.2.3 or 2.0.0-beta.1. */
export function isSemanticVersion(value: string): boolean {
  return value.length <= LIMITS.maxMetadataLength && semver.valid(value) === value;
}

export function checkSemanticVersion(field: string, value: string): void {
  if (!isSemanticVersion(value)) {
    throw invalidArgument(`${field} "${clip(value, MAX_QUOTED_CHARS)}" is not a semantic version (expected MAJOR.MINOR.PATCH, for example 1.2.3)`);
  }
}

/** Free-text metadata (owner, team, contact e-mail, consumer version): bounded length. */
export function checkMetadataText(field: string, value: string): void {
  if (value.length > LIMITS.maxMetadataLength) {
    throw invalidArgument(
      `${field} is ${value.length} characters, over the limit of ${LIMITS.maxMetadataLength} (maxMetadataLength)`,
    );
  }
}

/** Ascending semantic-version order. */
export function compareVersions(a: string, b: string): number {
  return semver.compare(a, b);
}

