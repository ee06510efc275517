/**
 * One OpenAPI document ready to validate interactions: its router, built at construction, and its
 * schema validators, compiled per operation on first use with one AJV instance. Pure and
 * synchronous; nothing here does I/O. Dropping the object (or `close()`) frees everything compiled.
 */
import { isJsonObject } from '../json';
import { HTTP_METHODS, type OpenApiDocument } from '../openapi/document';
import { splitQuerySelector } from '../openapi/query-selector-paths';
import { routingPathPrefixes } from '../openapi/servers';
import type { CallContext } from './call-context';
import { addError, createReport, toOutcome, type ErrorReport } from './error-report';
import { validationMessages } from './messages';
import { buildOperationPlan, type OperationPlan } from './operation-plan';
import { resolveContractOptions, type ContractOptions } from './options';
import { checkRequest } from './request-checks';
import { parseRequestTarget } from './request-target';
import { checkResponse } from './response-checks';
import { buildRouteTable, type RouteEntry, type RouteMatch, type RouteSelectionInput, type RouteTable } from './route-table';
import { SchemaCompiler } from './schema-compiler';
import type { ErrorCategory, InteractionInput, ProducerResponseInput, ValidationOutcome } from './types';

interface LocatedRoute extends RouteMatch {
  query: string;
  /** A HEAD request the document describes only as GET: checked as that GET, without the response's content. */
  headAsGet?: true;
}

interface RouteFailure {
  category: ErrorCategory;
  message: string;
}

/** The answer of a `preparedOnly` validation whose operation is not prepared: nothing was run. */
export const NOT_PREPARED = Symbol('not prepared');

export interface PreparedOnly {
  preparedOnly: boolean;
}

const METHODS = new Set(HTTP_METHODS.map((method) => method.toUpperCase()));

export class CompiledContract {
  private readonly options: Readonly<ContractOptions>;
  private readonly document: OpenApiDocument;
  private readonly routes: RouteTable;
  /** Server-URL path prefixes (a converted v2 basePath among them), longest first. */
  private readonly prefixes: readonly string[];
  private readonly compiler: SchemaCompiler;
  private planCount = 0;
  /** Plans that have been through one whole validation: their schemas are compiled. */
  private readonly preparedPlans = new WeakSet<OperationPlan>();
  private closed = false;

  constructor(document: OpenApiDocument, options?: Partial<ContractOptions>) {
    this.options = resolveContractOptions(options);
    const usable = isJsonObject(document) ? document : ({ openapi: '3.0.0' } as OpenApiDocument);
    const dialect = typeof usable.openapi === 'string' && usable.openapi.startsWith('3.1') ? '3.1' : '3.0';
    this.routes = buildRouteTable(usable, this.options.maxPathChars);
    this.prefixes = routingPathPrefixes(usable);
    this.compiler = new SchemaCompiler(usable, dialect, this.options);
    this.document = usable;
  }

  /** Operations whose checks have been prepared (their schemas compile on first use). */
  get compiledOperationCount(): number {
    return this.planCount;
  }

  /** Schema objects compiled so far (they cost far more memory than their JSON text: workers weigh cached contracts by them). */
  get compiledSchemaNodes(): number {
    return this.compiler.compiledNodes;
  }

  /**
   * Consumer mode (spec rule 5): the request, and the response when given. With `preparedOnly`, a
   * call whose operation has not been through a whole validation yet (so it may compile schemas
   * first) is not run: the answer is NOT_PREPARED. The pool uses it to keep first calls, whose
   * compile may take long, out of batches shared with other calls.
   */
  validateInteraction(input: InteractionInput): ValidationOutcome;
  validateInteraction(input: InteractionInput, options: PreparedOnly): ValidationOutcome | typeof NOT_PREPARED;
  validateInteraction({ request, response }: InteractionInput, { preparedOnly }: Partial<PreparedOnly> = {}): ValidationOutcome | typeof NOT_PREPARED {
    const report = this.newReport();
    const located = this.locate(request.method, request.path, request.headers);
    if (!('route' in located)) {
      addError(report, located.category, located.message);
      return toOutcome(report);
    }
    if (preparedOnly === true && !this.isPrepared(located.route)) return NOT_PREPARED;
    const plan = this.planOf(located.route);
    const call = this.callContext(plan, report);
    checkRequest(plan, located.params, located.query, request, call);
    if (response !== undefined) checkResponse(plan, response, call, located.headAsGet === true);
    this.preparedPlans.add(plan);
    return toOutcome(report);
  }

  /**
   * Producer mode (spec rule 5): only the response is checked. The request, when given, only helps
   * find the route: its method and path stand in for empty ones, and its path is tried when `path`
   * matches no operation. `preparedOnly` as for validateInteraction.
   */
  validateProducerResponse(input: ProducerResponseInput): ValidationOutcome;
  validateProducerResponse(input: ProducerResponseInput, options: PreparedOnly): ValidationOutcome | typeof NOT_PREPARED;
  validateProducerResponse({ method, path, response, request }: ProducerResponseInput, { preparedOnly }: Partial<PreparedOnly> = {}): ValidationOutcome | typeof NOT_PREPARED {
    const report = this.newReport();
    const routeMethod = method !== '' ? method : (request?.method ?? '');
    let located = this.locate(routeMethod, path !== '' ? path : (request?.path ?? ''), request?.headers);
    if (!('route' in located) && request !== undefined && request.path !== '' && request.path !== path) {
      const fromRequest = this.locate(routeMethod, request.path, request.headers);
      if ('route' in fromRequest) located = fromRequest;
    }
    if (!('route' in located)) {
      addError(report, located.category, located.message);
      return toOutcome(report);
    }
    if (preparedOnly === true && !this.isPrepared(located.route)) return NOT_PREPARED;
    const plan = this.planOf(located.route);
    checkResponse(plan, response, this.callContext(plan, report), located.headAsGet === true);
    this.preparedPlans.add(plan);
    return toOutcome(report);
  }

  /** Frees the compiled validators; the contract cannot validate afterwards. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const route of this.routes.routes) route.plan = undefined;
    this.compiler.close();
  }

  private newReport(): ErrorReport {
    if (this.closed) throw new Error('CompiledContract is closed');
    return createReport(this.options.maxErrors, this.options.maxErrorBytes);
  }

  private callContext(plan: OperationPlan, report: ErrorReport): CallContext {
    return { compiler: this.compiler, options: this.options, report, operation: plan.label };
  }

  /**
   * Whether validating a call of `route` can compile nothing new: its operation has been through a
   * whole validation already. A response status not seen before may still compile its schema
   * (usually small). Calls that find no route compile nothing: they are answered at once.
   */
  private isPrepared(route: RouteEntry): boolean {
    return route.plan !== undefined && this.preparedPlans.has(route.plan);
  }

  private planOf(route: RouteEntry): OperationPlan {
    if (route.plan === undefined) {
      route.plan = buildOperationPlan(this.document, route);
      this.planCount++;
    }
    return route.plan;
  }

  /** Spec rules 1 and "Schema loading rules" 3–4: server prefixes are stripped only for matching, and optional. */
  private locate(method: string, rawPath: string, headers?: Record<string, string>): LocatedRoute | RouteFailure {
    const upper = METHODS.has(method) ? method : method.toUpperCase();
    const maxChars = this.options.maxQuotedValueChars;
    if (!METHODS.has(upper)) return { category: 'input_validation', message: validationMessages.invalidMethod(method, maxChars) };
    const target = parseRequestTarget(rawPath, this.options.maxPathChars);
    if (target === 'too-long') {
      return { category: 'http_request_creation', message: validationMessages.pathTooLong(rawPath.length, this.options.maxPathChars) };
    }
    if (target === 'not-absolute') {
      return { category: 'http_request_creation', message: validationMessages.pathNotAbsolute(rawPath, maxChars) };
    }
    const { path, query } = target;
    const match = this.findRoute(upper, path, { query, headers });
    if (match !== undefined) return { route: match.route, params: match.params, query };
    // RFC 9110 §9.3.2: HEAD is GET without the content, and servers answer it for every GET route.
    const get = upper === 'HEAD' ? this.findRoute('GET', path, { query, headers }) : undefined;
    if (get !== undefined) return { route: get.route, params: get.params, query, headAsGet: true };

    const elsewhere = this.routesForAnyMethod(path);
    const sameMethod = elsewhere.filter((route) => route.method === upper);
    if (sameMethod.length > 0) {
      // The path matches, but only keys whose query selector the request does not satisfy.
      const keyPath = splitPath(sameMethod[0]!.template);
      const keys = this.routes.routes.filter((route) => route.method === upper && route.selector.length > 0 && splitPath(route.template) === keyPath);
      return { category: 'route_not_found', message: validationMessages.selectorNotMatched(upper, path, keys.slice(0, MAX_LISTED_KEYS).map((route) => route.template), maxChars) };
    }
    if (elsewhere.length > 0) {
      const defined = [...new Set(elsewhere.map((route) => route.method))].sort();
      return { category: 'route_not_found', message: validationMessages.methodNotDefined(upper, elsewhere[0]!.template, defined) };
    }
    return { category: 'route_not_found', message: validationMessages.pathNotFound(path, maxChars) };
  }

  private findRoute(method: string, path: string, selection: RouteSelectionInput): RouteMatch | undefined {
    for (const prefix of this.prefixes) {
      const stripped = stripPrefix(path, prefix);
      if (stripped === undefined) continue;
      const match = this.routes.find(method, stripped, selection);
      if (match !== undefined) return match;
    }
    return this.routes.find(method, path, selection);
  }

  private routesForAnyMethod(path: string): RouteEntry[] {
    for (const prefix of this.prefixes) {
      const stripped = stripPrefix(path, prefix);
      const routes = stripped === undefined ? [] : this.routes.matchAnyMethod(stripped);
      if (routes.length > 0) return routes;
    }
    return this.routes.matchAnyMethod(path);
  }
}

/** Path keys listed when no query selector matches. */
const MAX_LISTED_KEYS = 10;

function splitPath(template: string): string {
  return splitQuerySelector(template).path;
}

/** `/v1/pets` without `/v1` → `/pets`; undefined when the path does not start with the prefix. */
function stripPrefix(path: string, prefix: string): string | undefined {
  if (!path.startsWith(prefix)) return undefined;
  if (path.length === prefix.length) return '/';
  return path.charCodeAt(prefix.length) === 0x2f /* / */ ? path.slice(prefix.length) : undefined;
}
