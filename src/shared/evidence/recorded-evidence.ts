/**
 * What a recorded interaction leaves as evidence once it is attributed to an operation: its headers
 * and bodies redacted, the response field paths the consumer read and those it received besides,
 * and a digest of its shape. The bodies are parsed, walked and written out again, which makes this
 * the costly part of recording (about 7 ms for a 250 Ki-character body): the server describes small
 * interactions on its main thread and large ones on a document-task thread, with this one function.
 */
import { fieldPaths, shapeDigest, usedFieldList } from './field-paths';
import { redactBody, redactHeaders, redactPath } from './redaction';

/** One exchange as recorded, with the method in upper case and the real path. */
export interface RecordedExchange {
  method: string;
  path: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  statusCode: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  /**
   * Response field paths the consumer's code read (ending with ALL_FIELDS when there were more than
   * could be taken); undefined when not tracked (then all it received counts as used).
   */
  readFields: string[] | undefined;
}

export interface RecordedEvidence {
  usedFields: string[];
  /** Received but not read (empty when reads were not tracked). */
  receivedFields: string[];
  shape: string;
  /** The redacted interaction, as a sample stores it. */
  interactionJson: string;
}

export function describeRecordedExchange(exchange: RecordedExchange, redactedKeys: ReadonlySet<string>): RecordedEvidence {
  const requestBody = redactBody(exchange.requestBody, redactedKeys);
  const responseBody = redactBody(exchange.responseBody, redactedKeys);
  const request = { method: exchange.method, path: redactPath(exchange.path, redactedKeys), headers: redactHeaders(exchange.requestHeaders, redactedKeys), body: requestBody.text };
  const response = { status_code: exchange.statusCode, headers: redactHeaders(exchange.responseHeaders, redactedKeys), body: responseBody.text };
  const { paths: received, cut } = fieldPaths(responseBody.value);
  const { readFields } = exchange;
  const read = new Set(readFields);
  return {
    usedFields: readFields ?? usedFieldList(received, cut),
    receivedFields: readFields ? received.filter((field) => !read.has(field)) : [],
    shape: shapeDigest([request.method, requestBody.value, exchange.statusCode, responseBody.value]),
    interactionJson: JSON.stringify({ request, response }),
  };
}
