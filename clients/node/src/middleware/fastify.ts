/**
 * Producer validation as a Fastify plugin. Shadow and warn add one `onRequest` hook, which watches the
 * Node request and response under Fastify's (`request.raw`, `reply.raw`) as the http middleware does:
 * the request body as Fastify reads it, the response as Fastify writes it, validated after the
 * response went out. Strict mode checks the parsed request in a `preHandler` and answers 400 through
 * Fastify. Needs nothing from Fastify at run time; the plugin is marked like `fastify-plugin` does
 * so that its hook covers every route.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { observeExchange, parsedRequest, validateResponseAtEnd } from './http-exchange';
import type { ProducerMiddlewareOptions, ViolationLogger } from './middleware-options';
import { ProducerValidation, handleOf, type ProducerValidationHandle } from './producer-validation';

/** The parts of Fastify's request, reply and instance the plugin uses. */
export interface FastifyRequestLike {
  url: string;
  body?: unknown;
  raw: IncomingMessage;
}

export interface FastifyReplyLike {
  code(statusCode: number): FastifyReplyLike;
  send(payload?: unknown): FastifyReplyLike;
  raw: ServerResponse;
}

export interface FastifyInstanceLike {
  addHook(name: string, hook: (...args: any[]) => unknown): unknown;
  log?: ViolationLogger;
}

export type FastifyContractPlugin = ((instance: FastifyInstanceLike, options: unknown, done: (error?: Error) => void) => void)
  & ProducerValidationHandle;

/** Symbols `fastify-plugin` sets: no encapsulation (hooks apply to the whole app), and a name in errors. */
const SKIP_OVERRIDE = Symbol.for('skip-override');
const DISPLAY_NAME = Symbol.for('fastify.display-name');

/**
 * Every hook costs Fastify something on every request (a pass-through `onSend` hook alone added about
 * 6 % to a small app's p50), so each mode adds one: `onRequest` for shadow and warn, an async
 * `preHandler` for strict. Everything that can wait (encoding bodies to text) happens after the response.
 */
export function createFastifyPlugin(options: ProducerMiddlewareOptions): FastifyContractPlugin {
  const validation = new ProducerValidation(options);

  const plugin = (instance: FastifyInstanceLike, _options: unknown, done: (error?: Error) => void): void => {
    validation.useDefaultLogger(instance.log);

    if (validation.mode === 'strict') {
      instance.addHook('preHandler', async (request: FastifyRequestLike, reply: FastifyReplyLike) => {
        if (!validation.selects(request.url)) return undefined;
        const checked = parsedRequest(request.raw, request.url, request.body);
        const rejection = await validation.checkRequest(checked);
        if (!rejection) {
          validateResponseAtEnd(validation, reply.raw, () => checked);
          return undefined;
        }
        reply.code(400).send(rejection);
        return reply;
      });
    } else {
      instance.addHook('onRequest', (request: FastifyRequestLike, reply: FastifyReplyLike, next: () => void) => {
        if (validation.selects(request.url)) {
          observeExchange(validation, { request: request.raw, response: reply.raw, url: request.url, parsedBody: () => request.body });
        }
        next();
      });
    }

    done();
  };

  Object.assign(plugin, { [SKIP_OVERRIDE]: true, [DISPLAY_NAME]: 'svc-contract-validation' });
  return Object.assign(plugin, handleOf(validation));
}
