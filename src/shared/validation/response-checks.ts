/** Spec "Validation rules" 3 and 4: status code (exact, `NXX` range, `default`), declared headers, body. */
import type { CallContext } from './call-context';
import { checkBody } from './body-checks';
import { addError } from './error-report';
import { headerValue, headerValues } from './headers';
import { validationMessages } from './messages';
import type { OperationPlan, ResponsePlan, ResponsesPlan } from './operation-plan';
import { checkParameterValue, headerParameterValue } from './parameter-values';
import type { HttpResponseInput } from './types';

const CATEGORY = 'response_invalid';

/** `withoutContent`: the answer to a HEAD request, whose body the GET it stands for would carry. */
export function checkResponse(plan: OperationPlan, response: HttpResponseInput, call: CallContext, withoutContent = false): void {
  const status = response.statusCode;
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    addError(call.report, 'http_request_creation', validationMessages.invalidStatusCode(status));
    return;
  }
  if (plan.responses === undefined) return; // the document declares no responses for the operation
  const declared = responseFor(plan.responses, status);
  if (declared === undefined) {
    addError(call.report, CATEGORY, validationMessages.statusNotDefined(status, plan.label));
    return;
  }
  for (const header of declared.headers) {
    if (header.key === 'set-cookie') {
      // Set-Cookie lines are never joined (RFC 9110 section 5.3): `a=1, b=2` is no cookie, each line is one.
      const values = headerValues(response.headers, header.key);
      if (values.length > 1) {
        for (const raw of values) checkParameterValue(header, headerParameterValue(header, raw, CATEGORY, call), CATEGORY, call);
        continue;
      }
    }
    const raw = headerValue(response.headers, header.key);
    checkParameterValue(header, headerParameterValue(header, raw, CATEGORY, call), CATEGORY, call);
  }
  if (!withoutContent) checkBody(declared.body, 'response', response.headers, response.body, CATEGORY, call);
}

/** The most specific declaration wins: `404`, then `4XX`, then `default`. */
function responseFor(responses: ResponsesPlan, status: number): ResponsePlan | undefined {
  return responses.exact.get(status) ?? responses.ranges[Math.floor(status / 100)] ?? responses.fallback;
}
