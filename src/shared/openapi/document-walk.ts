/**
 * The one reading of which members of an OpenAPI document are OpenAPI objects and schemas, and
 * which are data. Intake's walks (external and dangling `$ref`s, patterns and property counts, 3.1
 * `$id`s) all go through here, so a `$ref` or a `pattern` inside an example is never taken for a
 * reference or a regex, and a property, response or security scheme that happens to be called
 * `default` is never taken for data.
 *
 * Data, never walked:
 * - `example`, `default`, `enum`, `const`: literal values;
 * - `x-…` extensions: free-form (Azure's `x-ms-examples` holds `{$ref: ./examples/List.json}`,
 *   which its tools read, and nothing here must);
 * - `examples` as a list (JSON Schema's keyword, 3.1) and, in Swagger 2.0, a response's
 *   `examples` (media type → value).
 * In OpenAPI 3, `examples` as a map (a media type's, a parameter's, a header's, the components')
 * maps names to Example Objects, each of which may be a Reference Object: those references are
 * walked; only an Example Object's `value` is data (OpenAPI 3.0 §4.7.19, 3.1 §4.8.19).
 *
 * A `$ref` that names something inside data (`#/x-shared/Thing`, a schema's `example`) makes it more
 * than data: what it names is walked too, once, so its own references are checked like any others.
 */
import { escapePointerToken, isJsonObject, unescapePointerToken, type JsonObject, type JsonValue } from '../json';
import { isSwagger2 } from './document';
import { refToPointer, resolveJsonPointer } from './ref-pointer';

/** Keys whose values are literal data wherever they are a field, not a name. */
const DATA_KEYS = new Set(['example', 'default', 'enum', 'const']);

/** Keys whose values map user-chosen names to schemas, responses, parameters...: every key there is a name. */
const NAME_MAP_KEYS = new Set([
  'properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'paths', 'webhooks', 'responses',
  'content', 'headers', 'encoding', 'callbacks', 'schemas', 'parameters', 'requestBodies', 'pathItems', 'links',
  'securitySchemes', 'securityDefinitions', 'variables', 'scopes', 'mapping',
]);

/** How the members of a node are read: fields, names, names of Example Objects, or an Example Object's fields. */
type Role = 'fields' | 'names' | 'examples' | 'example';

/** Whether `key` is a field whose value is data in any OpenAPI object or schema (`x-…`, `example`, `default`, `enum`, `const`). */
export function isDataField(key: string): boolean {
  return DATA_KEYS.has(key) || key.startsWith('x-');
}

/**
 * Calls `visit` for every object of the document that is not data, in document order (a parent
 * before its members). `names` says the object maps names to objects (`properties`, `responses`,
 * an `examples` map), so its keys are names, not fields. What `visit` returns is the context its
 * members are visited with (the enclosing `$id`, for one).
 */
export function walkDocument<C>(
  root: JsonValue,
  context: C,
  visit: (node: JsonObject, pointer: string, names: boolean, context: C) => C,
): void {
  const swagger2 = isJsonObject(root) && isSwagger2(root);
  const stack: Array<[node: JsonValue, pointer: string, role: Role, context: C]> = [[root, '', 'fields', context]];
  /** Pointers `$ref`s name: whether each is inside data (walked once, when it is). */
  const referenced = new Map<string, boolean>();
  while (stack.length > 0) {
    const [node, pointer, role, outer] = stack.pop()!;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i]!, `${pointer}/${i}`, 'fields', outer]);
      continue;
    }
    if (!isJsonObject(node)) continue;
    const inner = visit(node, pointer, role === 'names' || role === 'examples', outer);
    const target = typeof node.$ref === 'string' ? refToPointer(node.$ref) : undefined;
    if (target !== undefined && !referenced.has(target)) {
      const inData = isInData(root, target, swagger2);
      referenced.set(target, inData);
      const named = inData ? resolveJsonPointer(root, target) : undefined;
      if (named !== undefined) stack.push([named, target, 'fields', context]);
    }
    const keys = Object.keys(node);
    for (let k = keys.length - 1; k >= 0; k--) {
      const key = keys[k]!;
      const child = node[key]!;
      if (typeof child !== 'object' || child === null) continue;
      const childRole = memberRole(key, child, role, swagger2);
      if (childRole !== undefined) stack.push([child, `${pointer}/${escapePointerToken(key)}`, childRole, inner]);
    }
  }
}

/** Whether the JSON pointer `pointer` of `root` lies inside data (a member read as data on the way). */
function isInData(root: JsonValue, pointer: string, swagger2: boolean): boolean {
  if (pointer === '') return false;
  let node: JsonValue | undefined = root;
  let role: Role = 'fields';
  for (const raw of pointer.slice(1).split('/')) {
    const key = unescapePointerToken(raw);
    const child: JsonValue | undefined = Array.isArray(node)
      ? node[Number(key)]
      : isJsonObject(node) && Object.prototype.hasOwnProperty.call(node, key) ? node[key] : undefined;
    if (child === undefined) return false;
    if (!Array.isArray(node)) {
      const next = memberRole(key, child, role, swagger2);
      if (next === undefined) return true;
      role = next;
    } else {
      role = 'fields';
    }
    node = child;
  }
  return false;
}

/** How the member `key` of a node read as `role` is read; undefined when it is data. */
function memberRole(key: string, value: JsonValue, role: Role, swagger2: boolean): Role | undefined {
  switch (role) {
    case 'names':
      return 'fields';
    case 'examples':
      return 'example';
    case 'example':
      return key === 'value' || key.startsWith('x-') ? undefined : 'fields';
    case 'fields':
      if (isDataField(key)) return undefined;
      if (key === 'examples') return Array.isArray(value) || swagger2 ? undefined : 'examples';
      return NAME_MAP_KEYS.has(key) ? 'names' : 'fields';
  }
}
