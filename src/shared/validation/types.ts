/** The data the validation engine reads and answers: plain objects, safe to send between threads. */

export interface HttpRequestInput {
  /** HTTP method in any case (`GET`, `post`). */
  method: string;
  /** Real path with values, optionally with a query string (`/pets/42?fields=name`); a full URL is accepted too. */
  path: string;
  /** Header names in any case. */
  headers: Record<string, string>;
  /** Body text (JSON for JSON media types); '' means no body. */
  body: string;
}

export interface HttpResponseInput {
  statusCode: number;
  headers: Record<string, string>;
  /** Body text; '' means no body. */
  body: string;
}

/** The spec's `error_category` values; the first failure of an outcome decides its category. */
export const ERROR_CATEGORIES = Object.freeze([
  'input_validation',
  'schema_not_found',
  'http_request_creation',
  'router_creation',
  'route_not_found',
  'request_invalid',
  'response_invalid',
] as const);
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

export interface ValidationOutcome {
  valid: boolean;
  /** Every violation found, up to `maxErrors` (the last entry says how many more were left out). */
  errors: string[];
  /** Category of the first failure; absent when valid. */
  category?: ErrorCategory;
}

/** Consumer mode: the request is checked, and the response too when given. */
export interface InteractionInput {
  request: HttpRequestInput;
  response?: HttpResponseInput;
}

/** Producer mode: only the response is checked; `request` only helps find the route. */
export interface ProducerResponseInput {
  method: string;
  path: string;
  response: HttpResponseInput;
  request?: HttpRequestInput;
}
