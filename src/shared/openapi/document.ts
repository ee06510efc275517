/**
 * The shape of an OpenAPI 3.x document as the engines read it. Loose on purpose: documents are
 * user data, so every engine reads fields defensively; these types only name what is expected.
 */
import type { JsonObject, JsonValue } from '../json';

export type OpenApiDocument = JsonObject & {
  openapi: string;
  paths?: Record<string, JsonObject>;
  components?: JsonObject;
  servers?: JsonValue;
};

/** HTTP methods an OpenAPI path item can hold, in the order endpoints are listed. */
export const HTTP_METHODS = Object.freeze(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const);
export type HttpMethod = (typeof HTTP_METHODS)[number];

export function isHttpMethod(value: string): value is HttpMethod {
  return (HTTP_METHODS as readonly string[]).includes(value);
}

/**
 * The `swagger` field of a document as a version string. YAML reads `swagger: 2.0` unquoted as the
 * number 2, which can only mean "2.0"; `openapi` numbers are ambiguous (3.10 reads as 3.1) and left
 * to intake to refuse.
 */
export function swaggerVersion(document: JsonObject): string | undefined {
  const { swagger } = document;
  if (swagger === undefined) return undefined;
  return swagger === 2 ? '2.0' : String(swagger);
}

/** Whether a document declares Swagger 2.0 (`swagger: "2.0"`, or 2.0 unquoted in YAML). */
export function isSwagger2(document: JsonObject): boolean {
  return swaggerVersion(document)?.startsWith('2.') === true;
}

/** Which OpenAPI line the registered text was written in. */
export type SourceFormat = 'swagger-2.0' | 'openapi-3.0' | 'openapi-3.1';

/** The media types whose bodies are form fields (OpenAPI's Encoding Object applies to them). */
export const FORM_MEDIA_TYPES = Object.freeze(['application/x-www-form-urlencoded', 'multipart/form-data'] as const);
