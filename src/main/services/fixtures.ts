/**
 * GenerateFixture: a request, a response, or both, for one operation of a registered schema
 * version, from the pure fixture engine (src/shared/fixture-generator, the same code `svc generate`
 * runs), on a document-task thread: a schema that asks for huge values costs its caller a refused
 * call (fixtureMaxMs, the thread's heap limit), never the main thread.
 * Every refusal is an answer (`success=false` with a message naming what was asked), never a
 * gRPC error: an unknown schema or version, path, method, status code or content type, and a
 * schema that admits no valid value.
 */
import { SvcError, invalidArgument } from '../../shared/errors';
import type { FixtureRequestSpec, GeneratedResponseRecord } from '../../shared/fixture-generator';
import type { ContractValidatorHandlers, GenerateFixtureRequest__Output, GenerateFixtureResponse, GeneratedResponse } from '@svc/client/protocol';
import { checkIdentifier } from '../../shared/identifiers';
import { callerOf } from '../auth/principal';
import { unary } from '../unary-handler';
import type { ServiceContext } from '../service-context';

export function createFixtureHandlers(ctx: ServiceContext): Partial<ContractValidatorHandlers> {
  return {
    GenerateFixture: unary(ctx, 'GenerateFixture', async (request: GenerateFixtureRequest__Output, call) => {
      try {
        // A caller that has gone (cancelled, past its deadline) frees the fixture thread: others' fixtures wait for it.
        return await answer(ctx, request, callerOf(call, ctx.trustedProxies), () => call.cancelled);
      } catch (error) {
        if (error instanceof SvcError) return { success: false, message: error.message };
        throw error;
      }
    }),
  };
}

async function answer(ctx: ServiceContext, request: GenerateFixtureRequest__Output, caller: string, gone: () => boolean): Promise<GenerateFixtureResponse> {
  checkIdentifier('schema_id', request.schema_id);
  if (request.path === '') throw invalidArgument('path is required: an API path template such as /users/{id}');
  const { ref, documentJson } = await ctx.schemas.documentSource(request.schema_id, request.schema_version);
  const { schemaId, version } = ref;
  const document = { hash: ref.hash, documentJson };
  const spec: FixtureRequestSpec = {
    method: request.method,
    path: request.path,
    statusCode: request.status_code,
    useExamples: request.use_examples,
    contentType: request.content_type,
  };
  const source = `schema ${schemaId} version ${version}`;
  const operation = `${request.method.toUpperCase()} ${request.path}`;

  switch (request.output_type) {
    case 'OUTPUT_REQUEST': {
      const { body } = await ctx.documentTasks.run<'request'>({ kind: 'fixture', document, spec, output: 'request' }, caller, gone);
      const message = body === '' ? `${operation} takes no request body` : `Request body for ${operation} generated`;
      return { success: true, message: `${message} (${source})`, request_body: body };
    }
    case 'OUTPUT_RESPONSE': {
      const { response } = await ctx.documentTasks.run<'response'>({ kind: 'fixture', document, spec, output: 'response' }, caller, gone);
      const message = `Response ${response.statusCode} for ${operation} generated from ${source}`;
      return { success: true, message, response: toProtoResponse(response) };
    }
    default: {
      const { fixture } = await ctx.documentTasks.run<'fixture'>({ kind: 'fixture', document, spec, output: 'fixture' }, caller, gone);
      const message = `Fixture for ${operation} (${fixture.response.statusCode}) generated from ${source}`;
      return { success: true, message, fixture: { request: fixture.request, response: toProtoResponse(fixture.response) } };
    }
  }
}

function toProtoResponse(response: GeneratedResponseRecord): GeneratedResponse {
  return { status_code: response.statusCode, headers: response.headers, body: response.body };
}
