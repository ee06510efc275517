/** Spec "Validation rules" 2 and 4: the request's parameters (path, query, header, cookie) and body. */
import type { CallContext } from './call-context';
import { checkBody } from './body-checks';
import { headerValue } from './headers';
import type { OperationPlan } from './operation-plan';
import {
  checkParameterValue,
  cookieParameterValue,
  headerParameterValue,
  parseCookieHeader,
  pathParameterValue,
  queryParameterValue,
} from './parameter-values';
import { parseQueryString } from './query-string';
import type { RouteParams } from './route-table';
import type { HttpRequestInput } from './types';

const CATEGORY = 'request_invalid';

export function checkRequest(
  plan: OperationPlan,
  params: RouteParams,
  query: string,
  request: HttpRequestInput,
  call: CallContext,
): void {
  for (const parameter of plan.pathParameters) {
    checkParameterValue(parameter, pathParameterValue(parameter, params[parameter.key], CATEGORY, call), CATEGORY, call);
  }
  if (plan.queryParameters.length > 0) {
    // Unknown query parameters are allowed (rule 4): only declared ones are read.
    const values = parseQueryString(query);
    for (const parameter of plan.queryParameters) {
      checkParameterValue(parameter, queryParameterValue(parameter, values, CATEGORY, call, plan.queryParameters), CATEGORY, call);
    }
  }
  const headers = request.headers;
  for (const parameter of plan.headerParameters) {
    const raw = headerValue(headers, parameter.key);
    checkParameterValue(parameter, headerParameterValue(parameter, raw, CATEGORY, call), CATEGORY, call);
  }
  if (plan.cookieParameters.length > 0) {
    const cookies = parseCookieHeader(headerValue(headers, 'cookie', '; '));
    for (const parameter of plan.cookieParameters) {
      checkParameterValue(parameter, cookieParameterValue(parameter, cookies, CATEGORY, call), CATEGORY, call);
    }
  }
  checkBody(plan.requestBody, 'request', headers, request.body, CATEGORY, call);
}
