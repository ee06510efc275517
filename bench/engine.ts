/**
 * engine: interactions per second in-process, CompiledContract against openapi-backend, on the
 * same fixed set of valid and invalid interactions over a small, a medium and a large description.
 * Each engine does the whole job for an interaction: route, request checks (parameters, body) and
 * response checks (status, headers, body), JSON bodies parsed from text. Before timing, each
 * engine's verdicts are compared with the expected ones, so the two do comparable work.
 * Goal: CompiledContract ≥ 20× openapi-backend.
 */
import { loadSchema } from '../src/shared/openapi/load-document';
import { CompiledContract } from '../src/shared/validation';
import { corpusRequire, corpusText, ensureCorpora } from './corpora';
import { ratioRow, measureSyncRate, machineNote, type BenchRow, type BenchSuite } from './harness';
import { BENCH_SCHEMAS, type BenchInteraction } from './interactions';

const MEASURE_MS = 2_000;
const GOAL_RATIO = 20;

interface PeerBackend {
  init(): Promise<unknown>;
  router: { matchOperation(request: object): unknown };
  validator: {
    validateRequest(request: object, operation: unknown): { valid: boolean };
    validateResponse(body: unknown, operation: unknown, statusCode: number): { valid: boolean };
    validateResponseHeaders(headers: object, operation: unknown, options: object): { valid: boolean };
  };
}

export const engineSuite: BenchSuite = {
  name: 'engine',
  description: 'in-process interactions/s: CompiledContract vs openapi-backend (small, medium, large schema)',
  async run(progress) {
    ensureCorpora(progress);
    const rows: BenchRow[] = [];
    const notes = [
      machineNote(),
      `each engine runs ${MEASURE_MS / 1000} s per schema over the same interactions, cycling; openapi-backend in quick mode (validators compiled lazily, like ours), with ajv-formats and type coercion`,
      'openapi-backend routes by scanning every operation of the document, so its figure falls with the size of the API',
    ];
    for (const schema of BENCH_SCHEMAS) {
      const text = corpusText(schema.corpusFile);
      progress(`${schema.size}: preparing ${schema.title}`);
      const ours = new CompiledContract((await loadSchema(text)).document);
      const peer = await openPeer(text);
      const { interactions } = schema;
      const oursAgree = interactions.filter((i) => ours.validateInteraction(i).valid === i.valid).length;
      const peerAgree = interactions.filter((i) => peerValidate(peer, i) === i.valid).length;
      notes.push(`${schema.size} (${schema.title}): verdicts as expected — CompiledContract ${oursAgree}/${interactions.length}, openapi-backend ${peerAgree}/${interactions.length}`);

      progress(`${schema.size}: CompiledContract`);
      const oursRate = measureSyncRate((i) => ours.validateInteraction(interactions[i % interactions.length]!), MEASURE_MS);
      progress(`${schema.size}: openapi-backend`);
      const peerRate = measureSyncRate((i) => peerValidate(peer, interactions[i % interactions.length]!), MEASURE_MS);
      rows.push(ratioRow(`${schema.size}: CompiledContract vs openapi-backend`, oursRate, 'interactions/s', { name: 'openapi-backend', value: peerRate }, GOAL_RATIO));
      ours.close();
    }
    return { suite: 'engine', rows, notes };
  },
};

async function openPeer(text: string): Promise<PeerBackend> {
  const { default: OpenAPIBackend } = corpusRequire('openapi-backend') as { default: new (options: object) => PeerBackend };
  const addFormats = corpusRequire('ajv-formats') as (ajv: unknown) => unknown;
  // quick: validators compiled lazily per operation, as ours are; formats checked, as ours are.
  const peer = new OpenAPIBackend({
    definition: withOperationIds(JSON.parse(text)),
    quick: true,
    validate: true,
    coerceTypes: true,
    customizeAjv: (ajv: unknown) => {
      addFormats(ajv);
      return ajv;
    },
  });
  await peer.init();
  return peer;
}

/** openapi-backend finds validators by operationId; give operations without one a made-up id (setup only). */
function withOperationIds(document: { paths?: Record<string, Record<string, { operationId?: string }>> }): object {
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation === 'object' && operation !== null && !Array.isArray(operation) && operation.operationId === undefined) {
        operation.operationId = `${method} ${template}`;
      }
    }
  }
  return document;
}

/** openapi-backend's full check of one interaction: route, request, response body and headers. */
function peerValidate(peer: PeerBackend, { request, response }: BenchInteraction): boolean {
  const peerRequest = {
    method: request.method,
    path: request.path,
    headers: request.headers,
    body: request.body === '' ? undefined : JSON.parse(request.body),
  };
  const operation = peer.router.matchOperation(peerRequest);
  if (!operation) return false;
  const requestValid = peer.validator.validateRequest(peerRequest, operation).valid;
  const body = response.body === '' ? undefined : JSON.parse(response.body);
  const bodyValid = peer.validator.validateResponse(body, operation, response.statusCode).valid;
  const headersValid = peer.validator.validateResponseHeaders(response.headers, operation, { statusCode: response.statusCode }).valid;
  return requestValid && bodyValid && headersValid;
}
