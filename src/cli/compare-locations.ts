/**
 * Where each change of `svc compare` is, in the documents the user wrote: pointers mapped back
 * through a Swagger 2.0 conversion (the description's `(at ...)` too), and the line in the new file
 * for annotations (a removal, which only the old file holds, points at the nearest node the new
 * file still has: the path item of a removed operation, the schema of a removed property).
 */
import { resolvePointer } from '../shared/openapi/refs';
import type { OpenApiDocument } from '../shared/openapi/document';
import type { ReportedChange } from '../shared/compare/reported-change';
import { toSwagger2Pointer } from '../shared/compare/swagger2-locations';
import type { LocatedChange } from './reports/compare-report';
import { SourceDocument } from './reports/source-document';

export interface ComparedSource {
  /** How reports name it: the path or URL given, or `<schema id> <version>`. */
  label: string;
  text: string;
  /** The OpenAPI 3.x document the engine compared (a Swagger 2.0 text converted). */
  document: OpenApiDocument;
  /** The repository path annotations point at, when the source is a local file. */
  annotationFile?: string;
  /** Parsed lazily: only reports with locations need it. */
  source?: SourceDocument;
}

export function locateChanges(changes: readonly ReportedChange[], oldSide: ComparedSource, newSide: ComparedSource): LocatedChange[] {
  const oldSource = (oldSide.source ??= new SourceDocument(oldSide.text));
  const newSource = (newSide.source ??= new SourceDocument(newSide.text));
  return changes.map((change) => {
    if (!change.pointer) return { ...change };
    // The engine points into the old document for removals, into the new one otherwise.
    const inNew = resolvePointer(newSide.document, change.pointer) !== undefined;
    const side = inNew ? newSource : oldSource;
    const converted = inNew ? newSide.document : oldSide.document;
    const original = side.swagger2;
    const pointer = original ? toSwagger2Pointer(change.pointer, converted, original) : change.pointer;
    const description = pointer === change.pointer ? change.description : change.description.replace(`(at ${change.pointer})`, `(at ${pointer})`);
    const file = newSide.annotationFile;
    // lineOf stops at the deepest node the new file has, which for a removal is where it was.
    const line = file ? newSource.lineOf(pointer) : undefined;
    return { ...change, pointer, description, ...(file ? { file } : {}), ...(line ? { line } : {}) };
  });
}
