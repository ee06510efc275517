/**
 * One node:http exchange under producer validation, shared by the Express middleware and the plain
 * handler wrapper: capture, let the application answer, then validate off the request path; in strict
 * mode check the request first and answer 400 on a violation. The Fastify plugin captures through
 * `observeExchange` and `validateResponseAtEnd` on the Node objects under Fastify's request and reply.
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
    observeExchange(validation, { request, response: exchange.response, url, parsedBody: () => request.body });
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
  validateResponseAtEnd(validation, exchange.response, () => checked);
  exchange.proceed();
}

/** An exchange watched from before the application reads its request until it ends its response. */
export interface ObservedExchange {
  request: IncomingMessage;
  response: ServerResponse;
  /** Path with query string as the application sees it. */
  url: string;
  /** What a body parser made of the request body, read after the response (Express and Fastify: `body`). */
  parsedBody(): unknown;
}

/**
 * Shadow and warn: records the request body as the application reads it and the response as it is
 * written, and validates both once the response has ended. Call before anything reads the body.
 */
export function observeExchange(validation: ProducerValidation, exchange: ObservedExchange): void {
  const { request, url } = exchange;
  // A body parser mounted earlier has read the stream already: its parsed body is used, nothing to tap.
  const tapped = requestHasBody(request) && !request.readableEnded ? tapRequestBody(request, validation.maxBodyBytes) : noBody;
  validateResponseAtEnd(validation, exchange.response, () => capturedRequest(request, url, bodyAfterHandler(request, exchange.parsedBody(), tapped())));
}

const noBody = (): BodyCapture => ({ text: '', complete: true, seen: false });

/** Records the response and, once the application has ended it, validates it with the request `requestAtEnd` gives. */
export function validateResponseAtEnd(validation: ProducerValidation, response: ServerResponse, requestAtEnd: () => CapturedRequest): void {
  tapResponse(response, validation.maxBodyBytes, (responseBody, headers) => {
    const encoding = headers['content-encoding'];
    // A compression middleware mounted after this one hands us compressed bytes: nothing to check.
    const encoded = encoding !== undefined && String(encoding).trim().toLowerCase() !== 'identity';
    const body = encoded ? { text: '', complete: false, seen: true } : responseBody;
    validation.afterResponse(requestAtEnd(), {
      statusCode: response.statusCode,
      headers,
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
function bodyAfterHandler(request: IncomingMessage, parsed: unknown, tapped: BodyCapture): BodyCapture {
  if (!requestHasBody(request) || tapped.seen || !tapped.complete) return tapped;
  if (parsed !== undefined && !placeholderBody(request, parsed)) return parsedBody(parsed);
  return tapped;
}

/**
 * Express 4's body parsers (body-parser 1) set `req.body = {}` on every request, and `req._body`
 * only on one they parsed: an empty object without the mark stands for a body nobody read.
 */
function placeholderBody(request: IncomingMessage, parsed: unknown): boolean {
  return (request as { _body?: unknown })._body !== true && parsed !== null && typeof parsed === 'object'
    && Object.getPrototypeOf(parsed) === Object.prototype && Object.keys(parsed).length === 0;
}

/** What a body parser placed on the request; see `parsedBodyText`. */
function parsedBody(body: unknown): BodyCapture {
  return { ...parsedBodyText(body), seen: true };
}

/** A request whose body a body parser has read and parsed before the check (Fastify's `request.body` in strict mode). */
export function parsedRequest(request: IncomingMessage, url: string, parsed: unknown): CapturedRequest {
  return capturedRequest(request, url, parsedBody(parsed));
}

function capturedRequest(request: IncomingMessage, url: string, body: BodyCapture): CapturedRequest {
  const bodyUnread = requestHasBody(request) && body.complete && !body.seen;
  return { method: request.method ?? 'GET', url, headers: request.headers, body: body.text, complete: body.complete, ...(bodyUnread ? { bodyUnread } : {}) };
}

function reject(response: ServerResponse, rejection: RejectionBody): void {
  if (response.headersSent) return;
  const body = JSON.stringify(rejection);
  response.statusCode = 400;
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.setHeader('content-length', Buffer.byteLength(body));
  response.end(body);
}
