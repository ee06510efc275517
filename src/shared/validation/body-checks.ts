/**
 * Request and response bodies: presence, content type against the declared media types, then —
 * for JSON media types — parse behind the guards and validate against the media type's schema;
 * form bodies (URL-encoded and multipart) are read field by field (form-body.ts) and validated the
 * same way. Bodies of other media types (XML, text, files) get the presence and content-type
 * checks only: the service carries no parser for them.
 */
import type { CallContext } from './call-context';
import { outsideDoubleRange } from './double-range';
import { addError } from './error-report';
import { formObject, isFormMediaType, parseFormBody, type FieldProblem } from './form-body';
import { headerValue } from './headers';
import { JsonRefusal, parseGuardedJson } from './json-body';
import { essence, isJsonMediaType, lookupMediaType } from './media-type';
import { validationMessages, where, type MessagePart } from './messages';
import type { BodyPlan, MediaTypePlan } from './operation-plan';
import { runSlot } from './schema-slot';
import type { ErrorCategory } from './types';

/** Interactions often leave the content type out; a body is then read as JSON, the spec's body format. */
const ASSUMED_MEDIA_TYPE = 'application/json';

export function checkBody(
  plan: BodyPlan | undefined,
  part: MessagePart,
  headers: Record<string, string>,
  body: string,
  category: ErrorCategory,
  call: CallContext,
): void {
  // No body declared: whatever is sent is not checked (many documents leave bodies undeclared).
  if (plan === undefined) return;
  if (body === '') {
    if (plan.required) addError(call.report, category, validationMessages.bodyRequired(part));
    return;
  }
  if (!plan.declared) return;

  const { content } = plan;
  const contentType = headerValue(headers, 'content-type');
  let mediaType = ASSUMED_MEDIA_TYPE;
  let media: MediaTypePlan | undefined;
  if (contentType === undefined || contentType.trim() === '') {
    media = content.defaultJson;
    if (media === undefined) {
      // A range (`application/*`, `*/*`) takes a body of any type in it: with no type given, nothing
      // says this one is JSON (a PDF, a ZIP), so only its presence is checked.
      const range = content.ranges.get('application/') ?? content.any;
      if (range === undefined) addError(call.report, category, validationMessages.contentTypeMissing(part, content.expected));
      return;
    }
  } else {
    mediaType = essence(contentType);
    media = lookupMediaType(content, mediaType);
    if (media === undefined) {
      addError(
        call.report,
        category,
        validationMessages.contentTypeNotAllowed(part, contentType, content.expected, call.options.maxQuotedValueChars),
      );
      return;
    }
  }
  if (media.fields !== undefined && isFormMediaType(mediaType)) {
    checkFormBody(media, mediaType, contentType ?? '', part, body, category, call);
    return;
  }
  if (!isJsonMediaType(mediaType)) return;

  // Parsed even without a schema: a JSON media type promises JSON text.
  const value = parseGuardedJson(body, call.options);
  if (!(value instanceof JsonRefusal)) {
    if (media.schema !== undefined) runSlot(media.schema, value, where.body(part), category, undefined, call);
  } else if (value.reason === 'outside-double-range') {
    // JSON all the same: only a schema would have to read the number.
    if (media.schema !== undefined) throw outsideDoubleRange(`${part} body`, value.detail);
  } else {
    addError(call.report, category, refusalMessage(part, value, call));
  }
}

function checkFormBody(
  media: MediaTypePlan,
  mediaType: string,
  contentType: string,
  part: MessagePart,
  body: string,
  category: ErrorCategory,
  call: CallContext,
): void {
  if (Buffer.byteLength(body, 'utf8') > call.options.maxBodyBytes) {
    addError(call.report, category, validationMessages.bodyTooLarge(part, Buffer.byteLength(body, 'utf8'), call.options.maxBodyBytes));
    return;
  }
  const fields = parseFormBody(mediaType, contentType, body);
  if (!(fields instanceof Map)) {
    addError(call.report, category, validationMessages.bodyNotForm(part, mediaType, fields.problem));
    return;
  }
  const guard = { limits: call.options, place: (name: string) => where.formField(part, name) };
  const { value, problems } = formObject(fields, media.fields!, guard, media.fieldStyles);
  for (const problem of problems) addError(call.report, category, fieldProblemMessage(where.formField(part, problem.name), problem, call));
  if (problems.length === 0 && media.schema !== undefined) runSlot(media.schema, value, where.body(part), category, undefined, call);
}

function fieldProblemMessage(place: string, problem: FieldProblem, call: CallContext): string {
  return problem.tooDeep
    ? validationMessages.valueTooDeep(place, call.options.maxBodyDepth)
    : validationMessages.notAValid(place, problem.value, problem.type, call.options.maxQuotedValueChars);
}

function refusalMessage(part: MessagePart, refusal: JsonRefusal, call: CallContext): string {
  switch (refusal.reason) {
    case 'too-large':
      return validationMessages.bodyTooLarge(part, refusal.bytes, call.options.maxBodyBytes);
    case 'too-deep':
      return validationMessages.bodyTooDeep(part, call.options.maxBodyDepth);
    default:
      return validationMessages.bodyNotJson(part, refusal.detail);
  }
}
