/**
 * Producer validation as a Fastify plugin, built on Fastify's hooks: `preHandler` checks the parsed
 * request in strict mode, `onSend` keeps the serialized payload, and `onResponse` (after the reply
 * went out) schedules the validation. Needs nothing from Fastify at run time; the plugin is marked
 * like `fastify-plugin` does so that its hooks cover every route.
 */
import type { HttpHeaders } from '../types';
import { encodeBody } from '../wire';
import type { ProducerMiddlewareOptions, ViolationLogger } from './middleware-options';
import { ProducerValidation, handleOf, parsedBodyText, type CapturedRequest, type ProducerValidationHandle } from './producer-validation';

/** The parts of Fastify's request, reply and instance the plugin uses. */
export interface FastifyRequestLike {
  method: string;
  url: string;
  headers: HttpHeaders;
  body?: unknown;
}

export interface FastifyReplyLike {
  statusCode: number;
  getHeaders(): HttpHeaders;
  code(statusCode: number): FastifyReplyLike;
  send(payload?: unknown): FastifyReplyLike;
}

export interface FastifyInstanceLike {
  addHook(name: string, hook: (...args: any[]) => unknown): unknown;
  log?: ViolationLogger;
}

export type FastifyContractPlugin = ((instance: FastifyInstanceLike, options: unknown, done: (error?: Error) => void) => void)
  & ProducerValidationHandle;

type Done = (error?: Error | null, value?: unknown) => void;

interface ExchangeState {
  /** Checked before the handler (strict mode). */
  checked: CapturedRequest | undefined;
  /** The serialized reply as Fastify sends it; converted to text only after the response. */
  payload: unknown;
  rejected: boolean;
}

/** Symbols `fastify-plugin` sets: no encapsulation (hooks apply to the whole app), and a name in errors. */
const SKIP_OVERRIDE = Symbol.for('skip-override');
const DISPLAY_NAME = Symbol.for('fastify.display-name');

/**
 * Hooks cost Fastify something on every request, so only the ones a mode needs are added: `onSend`
 * and `onResponse` always, an async `preHandler` only in strict mode. Everything that can wait
 * (encoding bodies to text) happens after the response.
 */
export function createFastifyPlugin(options: ProducerMiddlewareOptions): FastifyContractPlugin {
  const validation = new ProducerValidation(options);
  const exchanges = new WeakMap<FastifyRequestLike, ExchangeState>();

  const plugin = (instance: FastifyInstanceLike, _options: unknown, done: (error?: Error) => void): void => {
    validation.useDefaultLogger(instance.log);

    if (validation.mode === 'strict') {
      instance.addHook('preHandler', async (request: FastifyRequestLike, reply: FastifyReplyLike) => {
        if (!validation.selects(request.url)) return undefined;
        const state: ExchangeState = { checked: capture(request), payload: undefined, rejected: false };
        exchanges.set(request, state);
        const rejection = await validation.checkRequest(state.checked!);
        if (!rejection) return undefined;
        state.rejected = true;
        reply.code(400).send(rejection);
        return reply;
      });
    }

    instance.addHook('onSend', (request: FastifyRequestLike, _reply: FastifyReplyLike, payload: unknown, next: Done) => {
      const state = exchanges.get(request);
      if (state) state.payload = payload;
      else if (validation.mode !== 'strict' && validation.selects(request.url)) {
        exchanges.set(request, { checked: undefined, payload, rejected: false });
      }
      next(null, payload);
    });

    instance.addHook('onResponse', (request: FastifyRequestLike, reply: FastifyReplyLike, next: Done) => {
      const state = exchanges.get(request);
      exchanges.delete(request);
      if (state && !state.rejected) {
        const payload = payloadText(state.payload, validation.maxBodyBytes);
        validation.afterResponse(state.checked ?? capture(request), {
          statusCode: reply.statusCode,
          headers: reply.getHeaders(),
          body: payload.text,
          complete: payload.complete,
        });
      }
      next();
    });

    done();
  };

  Object.assign(plugin, { [SKIP_OVERRIDE]: true, [DISPLAY_NAME]: 'svc-contract-validation' });
  return Object.assign(plugin, handleOf(validation));
}

function capture(request: FastifyRequestLike): CapturedRequest {
  const body = parsedBodyText(request.body);
  return { method: request.method, url: request.url, headers: request.headers, body: body.text, complete: body.complete };
}

/** Fastify hands strings or Buffers for serialized replies; streams cannot be captured. */
function payloadText(payload: unknown, maxBytes: number): { text: string; complete: boolean } {
  if (payload === null || payload === undefined) return { text: '', complete: true };
  if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) return { text: '', complete: false };
  const bytes = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength;
  if (bytes > maxBytes) return { text: '', complete: false };
  return { text: encodeBody(payload).text, complete: true };
}
