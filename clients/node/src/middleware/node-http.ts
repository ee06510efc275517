/**
 * Producer validation around a plain `node:http` request handler (also fits frameworks that take one,
 * such as `http.createServer(app.callback())` of Koa).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProducerMiddlewareOptions } from './middleware-options';
import { handleExchange } from './http-exchange';
import { invalidUse } from '../client-error';
import { ProducerValidation, handleOf, type ProducerValidationHandle } from './producer-validation';

export type HttpHandler = (request: IncomingMessage, response: ServerResponse) => void;

export type ValidatedHttpHandler = HttpHandler & ProducerValidationHandle;

export function wrapHttpHandler(handler: HttpHandler, options: ProducerMiddlewareOptions): ValidatedHttpHandler {
  if (typeof handler !== 'function') throw invalidUse('wrapHttpHandler needs a (request, response) handler');
  const validation = new ProducerValidation(options);
  const wrapped = (request: IncomingMessage, response: ServerResponse): void => {
    handleExchange(validation, { request, response, url: request.url ?? '/', proceed: () => handler(request, response) });
  };
  return Object.assign(wrapped, handleOf(validation));
}
