/**
 * One node:http exchange under producer validation, shared by the Express middleware and the plain
 * handler wrapper: capture, let the application answer, then validate off the request path; in strict
 * mode check the request first and answer 400 on a violation.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRequestBodyAhead, requestHasBody, tapRequestBody, tapResponse, type BodyCapture } from './body-capture';
import { parsedBodyText, type CapturedRequest, type ProducerValidation, type RejectionBody } from './producer-validation';

export interface HttpExchange {
  request: IncomingMessage & { body?: unknown };
  response: ServerResponse;
  /** Path with query string as the application sees it (Express: `originalUrl`). */
  url: string;
  /** Hands the exchange to the application (Express: `next()`; node:http: the wrapped handler). */
  proceed(): void;
}

export function handleExchange(validation: ProducerValidation, exchange: HttpExchange): void {
  const { request, url } = exchange;
  if (!validation.selects(url)) {
    exchange.proceed();
    return;
  }
  if (validation.mode !== 'strict') {
    // A body parser mounted earlier has read the stream already: its `body` is used, nothing to tap.
    const tapped = requestHasBody(request) && !request.readableEnded ? tapRequestBody(request, validation.maxBodyBytes) : noBody;
    observe(validation, exchange, () => capturedRequest(request, url, bodyAfterHandler(request, tapped())));
    exchange.proceed();
    return;
  }
  // What the application throws from its handler surfaces as it would without the middleware.
  void checkThenProceed(validation, exchange).catch((error: unknown) => process.nextTick(() => {
    throw error;
  }));
}

/** Strict mode: the request is checked before the application sees it. */
async function checkThenProceed(validation: ProducerValidation, exchange: HttpExchange): Promise<void> {
  let checked: CapturedRequest;
  try {
    checked = capturedRequest(exchange.request, exchange.url, await bodyBeforeHandler(validation, exchange.request));
  } catch {
    // The request stream failed while read ahead (the client went away): the application sees it too.
    exchange.proceed();
    return;
  }
  const rejection = await validation.checkRequest(checked);
  if (rejection) {
    reject(exchange.response, rejection);
    return;
  }
  observe(validation, exchange, () => checked);
  exchange.proceed();
}

const noBody = (): BodyCapture => ({ text: '', complete: true, seen: false });

/** Records the exchange and validates it once the application has ended the response. */
function observe(validation: ProducerValidation, exchange: HttpExchange, requestAtEnd: () => CapturedRequest): void {
  const { response } = exchange;
  tapResponse(response, validation.maxBodyBytes, (responseBody) => {
    const encoding = response.getHeader('content-encoding');
    // A compression middleware mounted after this one hands us compressed bytes: nothing to check.
    const body = encoding !== undefined && encoding !== 'identity' ? { text: '', complete: false, seen: true } : responseBody;
    validation.afterResponse(requestAtEnd(), {
      statusCode: response.statusCode,
      headers: response.getHeaders(),
      body: body.text,
      complete: body.complete,
    });
  });
}

/** Strict mode: the body a body parser placed before us, else the body read ahead and put back. */
async function bodyBeforeHandler(validation: ProducerValidation, request: HttpExchange['request']): Promise<BodyCapture> {
  if (!requestHasBody(request)) return noBody();
  if (request.body !== undefined) return parsedBody(request.body);
  return readRequestBodyAhead(request, validation.maxBodyBytes);
}

/** After the handler: the bytes the application read, else what a body parser mounted earlier produced. */
function bodyAfterHandler(request: HttpExchange['request'], tapped: BodyCapture): BodyCapture {
  if (!requestHasBody(request) || tapped.seen || !tapped.complete) return tapped;
  if (request.body !== undefined) return parsedBody(request.body);
  return tapped;
}

/** What a body parser placed on the request; see `parsedBodyText`. */
function parsedBody(body: unknown): BodyCapture {
  return { ...parsedBodyText(body), seen: true };
}

function capturedRequest(request: IncomingMessage, url: string, body: BodyCapture): CapturedRequest {
  return { method: request.method ?? 'GET', url, headers: request.headers, body: body.text, complete: body.complete };
}

function reject(response: ServerResponse, rejection: RejectionBody): void {
  if (response.headersSent) return;
  const body = JSON.stringify(rejection);
  response.statusCode = 400;
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.setHeader('content-length', Buffer.byteLength(body));
  response.end(body);
}
