/**
 * Producer validation as Express middleware. Mount it before the routes it guards; for strict mode
 * it may come before or after `express.json()` (it reads the parsed `req.body`, or reads the raw body
 * ahead and puts it back). Needs nothing from Express at run time: it works on Node's request and
 * response objects, which Express extends.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProducerMiddlewareOptions } from './middleware-options';
import { handleExchange } from './http-exchange';
import { ProducerValidation, handleOf, type ProducerValidationHandle } from './producer-validation';

/** The parts of Express's request this middleware reads. */
export interface ExpressRequestLike extends IncomingMessage {
  originalUrl?: string;
  body?: unknown;
}

export type ExpressMiddleware = ((request: ExpressRequestLike, response: ServerResponse, next: (error?: unknown) => void) => void)
  & ProducerValidationHandle;

export function createExpressMiddleware(options: ProducerMiddlewareOptions): ExpressMiddleware {
  const validation = new ProducerValidation(options);
  const middleware = (request: ExpressRequestLike, response: ServerResponse, next: (error?: unknown) => void): void => {
    handleExchange(validation, { request, response, url: request.originalUrl ?? request.url ?? '/', proceed: () => next() });
  };
  return Object.assign(middleware, handleOf(validation));
}
