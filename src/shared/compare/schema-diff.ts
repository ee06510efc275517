/**
 * Direction-aware comparison of two schemas (DESIGN.md "Breaking-change kinds, by direction").
 *
 * Request side (the client writes, the server reads): a property newly required is
 * REQUIRED_FIELD_ADDED, a narrowed type TYPE_CHANGED, a removed enum value ENUM_VALUE_REMOVED; a
 * property that disappears is not breaking (the server ignores it).
 * Response side (the server writes, the client reads): a property removed or no longer required
 * is RESPONSE_SCHEMA_CHANGED, a changed type TYPE_CHANGED; enum changes are not breaking.
 * Tightened validation (min/max, length, pattern, a new enum or format) has no change type in the
 * spec and is not reported; relaxed validation is never breaking.
 */
import { isJsonObject, type JsonValue } from '../json';
import type { CompareSession, Direction } from './compare-session';
import { append, EXTRA, ITEMS, oncePerNode, underField, type FoundChange } from './found-change';
import { canonicalJson } from './json-pointer';
import { describeTypes, typesCompatible } from './schema-types';
import type { Alternative, SchemaLink, SchemaRef, SchemaView } from './schema-view';

const NONE: FoundChange[] = [];

export function diffSchemas(session: CompareSession, oldRef: SchemaRef, newRef: SchemaRef, direction: Direction): FoundChange[] {
  // 3.1's `false` schema takes no value: a request field that took some and now takes none is refused.
  if (direction === 'request' && refusesEverything(newRef) && !refusesEverything(oldRef)) {
    return [change('TYPE_CHANGED', newRef[0]!.pointer, 'no longer accepts any value (false schema)', 'a value', 'none')];
  }
  const oldView = session.view('old', oldRef);
  const newView = session.view('new', newRef);
  if (!oldView.known || !newView.known) return NONE;
  return session.memoised(direction, oldView.identity, newView.identity, () => oncePerNode(diffViews(session, oldView, oldRef, newView, newRef, direction)));
}

function diffViews(session: CompareSession, oldView: SchemaView, oldRef: SchemaRef, newView: SchemaView, newRef: SchemaRef, direction: Direction): FoundChange[] {
  if (oldView.alternatives || newView.alternatives) {
    const oldAlternatives = oldView.alternatives ?? [wholeSchema(oldView, oldRef)];
    const newAlternatives = newView.alternatives ?? [wholeSchema(newView, newRef)];
    const changes = diffAlternatives(session, oldAlternatives, newAlternatives, direction);
    if (direction !== 'request') return changes;
    // A discriminator dispatches by its tag: alternatives that overlap never compete.
    if (!newView.discriminator) append(changes, overlappingNewAlternatives(session, oldAlternatives, newAlternatives));
    return [...removedDiscriminatorTags(oldView, newView), ...changes];
  }

  if (oldView.types && newView.types && !typesCompatible(oldView.types, newView.types, direction)) {
    // A different kind of value: what lies below no longer lines up, so report this once.
    const oldTypes = describeTypes(oldView.types);
    const newTypes = describeTypes(newView.types);
    return [change('TYPE_CHANGED', newView.pointer, `changed type from ${oldTypes} to ${newTypes}`, oldTypes, newTypes)];
  }

  const changes: FoundChange[] = [];
  if (direction === 'request' && !oldView.types && !oldView.enumValues && newView.types) {
    // The old schema took a value of any type; requests of the others are refused now.
    const newTypes = describeTypes(newView.types);
    changes.push(change('TYPE_CHANGED', newView.pointer, `now accepts only ${newTypes} (any type before)`, 'any type', newTypes));
  }
  if (direction === 'request') {
    append(changes, removedDiscriminatorTags(oldView, newView));
    append(changes, removedEnumValues(oldView, newView));
    append(changes, newlyRequired(session, oldView, newView));
  } else {
    append(changes, lostResponseProperties(session, oldView, newView));
  }
  for (const [name, oldLinks] of oldView.properties) {
    const newLinks = newView.properties.get(name);
    const madeReadOnly = newLinks && direction === 'request' && session.view('new', newLinks).readOnly && !session.view('old', oldLinks).readOnly;
    if (madeReadOnly) {
      // Validation refuses a readOnly property sent in a request: clients that sent it are refused now.
      append(changes, underField(name, [change('TYPE_CHANGED', session.view('new', newLinks).pointer, 'is now read-only: a request that sends it is refused', 'writable', 'read-only')]));
      continue;
    }
    if (!newLinks || ignoredInDirection(session, oldLinks, newLinks, direction)) continue;
    append(changes, underField(name, diffSchemas(session, oldLinks, newLinks, direction)));
  }
  if (oldView.additionalProperties && newView.additionalProperties) {
    append(changes, underField(EXTRA, diffSchemas(session, oldView.additionalProperties, newView.additionalProperties, direction)));
  }
  if (oldView.items && newView.items) {
    append(changes, underField(ITEMS, diffSchemas(session, oldView.items, newView.items, direction)));
  }
  if (oldView.prefixItems && newView.prefixItems) {
    const positions = Math.min(oldView.prefixItems.length, newView.prefixItems.length);
    for (let i = 0; i < positions; i++) {
      append(changes, underField(ITEMS, diffSchemas(session, [oldView.prefixItems[i]!], [newView.prefixItems[i]!], direction)));
    }
  }
  return changes;
}

/** readOnly properties are not sent by clients; writeOnly ones are not returned to them. */
function ignoredInDirection(session: CompareSession, oldLinks: SchemaRef, newLinks: SchemaRef, direction: Direction): boolean {
  return direction === 'request' ? session.view('new', newLinks).readOnly : session.view('old', oldLinks).writeOnly;
}

/**
 * A request whose discriminator value the new document no longer maps is refused (validation
 * dispatches on it): a mapping key removed or renamed, or an unmapped alternative's component renamed.
 */
function removedDiscriminatorTags(oldView: SchemaView, newView: SchemaView): FoundChange[] {
  const before = oldView.discriminator;
  const after = newView.discriminator;
  if (!before || !after || before.property !== after.property) return NONE;
  const kept = new Set(after.tags);
  const removed = before.tags.filter((tag) => !kept.has(tag));
  if (removed.length === 0) return NONE;
  const list = removed.map((tag) => JSON.stringify(tag)).join(', ');
  return underField(before.property, [
    change('ENUM_VALUE_REMOVED', after.pointer, `no longer accepts ${list} (discriminator values)`, JSON.stringify(before.tags), JSON.stringify(after.tags)),
  ]);
}

function removedEnumValues(oldView: SchemaView, newView: SchemaView): FoundChange[] {
  if (!oldView.enumValues || !newView.enumValues) return NONE;
  const kept = new Set(newView.enumValues.map(canonicalJson));
  const removed = oldView.enumValues.filter((value) => !kept.has(canonicalJson(value)));
  if (removed.length === 0) return NONE;
  const list = removed.map((value) => canonicalJson(value)).join(', ');
  return [
    change('ENUM_VALUE_REMOVED', newView.pointer, `no longer accepts ${list}`, canonicalJson(oldView.enumValues), canonicalJson(newView.enumValues)),
  ];
}

function newlyRequired(session: CompareSession, oldView: SchemaView, newView: SchemaView): FoundChange[] {
  const changes: FoundChange[] = [];
  for (const [name, requiredPointer] of newView.required) {
    // A required readOnly property was required of responses only: clients never sent it.
    const oldLinks = oldView.properties.get(name);
    if (oldView.required.has(name) && !(oldLinks && session.view('old', oldLinks).readOnly)) continue;
    const newLinks = newView.properties.get(name);
    if (newLinks && session.view('new', newLinks).readOnly) continue;
    const existed = oldView.properties.has(name);
    const pointer = newLinks?.[0]?.pointer ?? requiredPointer;
    changes.push({
      ...change('REQUIRED_FIELD_ADDED', pointer, existed ? 'is now required' : 'was added as required', existed ? 'optional' : 'absent', 'required'),
      field: [name],
    });
  }
  return changes;
}

function lostResponseProperties(session: CompareSession, oldView: SchemaView, newView: SchemaView): FoundChange[] {
  const changes: FoundChange[] = [];
  for (const [name, oldLinks] of oldView.properties) {
    if (session.view('old', oldLinks).writeOnly) continue;
    const newLinks = newView.properties.get(name);
    if (!newLinks) {
      changes.push({ ...change('RESPONSE_SCHEMA_CHANGED', oldLinks[0]!.pointer, 'was removed', describeLinks(session, oldLinks), 'absent'), field: [name] });
    } else if (session.view('new', newLinks).writeOnly) {
      changes.push({ ...change('RESPONSE_SCHEMA_CHANGED', newLinks[0]!.pointer, 'is no longer returned (now writeOnly)', 'returned', 'writeOnly'), field: [name] });
    } else if (oldView.required.has(name) && !newView.required.has(name)) {
      changes.push({ ...change('RESPONSE_SCHEMA_CHANGED', newLinks[0]!.pointer, 'is no longer required', 'required', 'optional'), field: [name] });
    }
  }
  for (const [name, requiredPointer] of oldView.required) {
    // Required without a declared property (declared elsewhere, or only listed): its loss still counts.
    if (oldView.properties.has(name) || newView.required.has(name) || newView.properties.has(name)) continue;
    changes.push({ ...change('RESPONSE_SCHEMA_CHANGED', requiredPointer, 'was removed', 'required', 'absent'), field: [name] });
  }
  return changes;
}

function describeLinks(session: CompareSession, links: SchemaRef): string {
  const types = session.view('old', links).types;
  return types ? describeTypes(types) : 'present';
}

/**
 * Alternatives (`oneOf`/`anyOf`; a schema without them is one alternative). Request side: each
 * old alternative must still be accepted by a new one. Response side: each new alternative must
 * be one the client already handled. Alternatives pair by their `$ref` or title first, then by
 * any exact match; otherwise a named alternative is reported as gone (request) or new (response)
 * as a whole, and an inline one by its differences from the closest counterpart.
 */
function diffAlternatives(session: CompareSession, oldAlternatives: Alternative[], newAlternatives: Alternative[], direction: Direction): FoundChange[] {
  const [mustBeCovered, covering] = direction === 'request' ? [oldAlternatives, newAlternatives] : [newAlternatives, oldAlternatives];
  const pairDiff = (from: Alternative, to: Alternative) =>
    direction === 'request' ? diffSchemas(session, from.ref, to.ref, direction) : diffSchemas(session, to.ref, from.ref, direction);

  const changes: FoundChange[] = [];
  mustBeCovered.forEach((from, index) => {
    const namesake = from.identity === undefined ? undefined : covering.find((to) => to.identity === from.identity);
    if (namesake) {
      append(changes, pairDiff(from, namesake));
      return;
    }
    const sameIndex = covering[index];
    const ordered = sameIndex ? [sameIndex, ...covering.filter((to) => to !== sameIndex)] : covering;
    let closest: FoundChange[] | undefined;
    for (const to of ordered) {
      const found = pairDiff(from, to);
      if (found.length === 0) return;
      if (!closest || found.length < closest.length) closest = found;
    }
    // A named alternative with only named counterparts, none its namesake, is gone (or new) as a
    // whole; an inline one is more likely the same shape edited, so its closest match tells how.
    const named = from.identity !== undefined && covering.every((to) => to.identity !== undefined);
    if (named) changes.push(unmatchedAlternative(from, covering, direction));
    else append(changes, closest ?? NONE);
  });
  return changes;
}

/** A member of a `oneOf` (not an `anyOf`): a value must match it and no other. */
const ONE_OF_MEMBER = /\/oneOf\/\d+$/;

/**
 * `oneOf` accepts a value that exactly one alternative accepts. A new alternative that accepts
 * every value of one already there, or whose every value one already there accepts, makes those
 * values match two alternatives: a request accepted before is refused now. Only what the comparison
 * proves (one alternative holds the other) is reported, not every partial overlap (two open objects
 * requiring different properties share the values holding both).
 */
function overlappingNewAlternatives(session: CompareSession, oldAlternatives: Alternative[], newAlternatives: Alternative[]): FoundChange[] {
  const exclusive = newAlternatives.filter((alternative) => ONE_OF_MEMBER.test(alternative.pointer));
  if (exclusive.length < 2) return NONE;
  /** Whether new alternative `outer` accepts every value new alternative `inner` accepts: both read in the new document. */
  const newOnly = session.withinNew();
  const holds = (outer: Alternative, inner: Alternative) => diffSchemas(newOnly, inner.ref, outer.ref, 'request').length === 0;
  /** Whether old alternative `old` and new `current` accept the same values. */
  const same = (old: Alternative, current: Alternative) =>
    diffSchemas(session, old.ref, current.ref, 'request').length === 0 && diffSchemas(session, old.ref, current.ref, 'response').length === 0;
  const oldIdentities = new Set(oldAlternatives.map((alternative) => alternative.identity));
  const wasThere = (alternative: Alternative) => (alternative.identity !== undefined
    ? oldIdentities.has(alternative.identity)
    : oldAlternatives.some((old) => old.identity === undefined && same(old, alternative)));
  const kept = exclusive.filter(wasThere);
  const changes: FoundChange[] = [];
  for (const added of exclusive.filter((alternative) => !kept.includes(alternative))) {
    for (const other of kept) {
      const wider = holds(added, other);
      if (!wider && !holds(other, added)) continue;
      const [addedLabel, otherLabel] = [added.identity ?? added.pointer, other.identity ?? other.pointer];
      const shared = wider ? `every value of ${otherLabel}` : `only values ${otherLabel} accepts`;
      changes.push(change('TYPE_CHANGED', added.pointer, `adds the oneOf alternative ${addedLabel}, which accepts ${shared}: those values now match two alternatives and are refused`, otherLabel, `${otherLabel} and ${addedLabel}`));
      break;
    }
  }
  return changes;
}

function unmatchedAlternative(from: Alternative, covering: Alternative[], direction: Direction): FoundChange {
  const label = from.identity ?? from.pointer;
  const others = covering.map((to) => to.identity ?? to.pointer).join(', ');
  return direction === 'request'
    ? change('TYPE_CHANGED', from.pointer, `no longer accepts the alternative ${label}`, label, others)
    : change('RESPONSE_SCHEMA_CHANGED', from.pointer, `may now return the alternative ${label}, which matches none of the old ones`, others, label);
}

/** A schema without alternatives, as the one alternative it is (known by its `$ref`, if it is one). */
function wholeSchema(view: SchemaView, ref: SchemaRef): Alternative {
  const only = ref.length === 1 ? ref[0]!.node : undefined;
  const identity = isJsonObject(only) && typeof only.$ref === 'string' ? only.$ref : undefined;
  return { ref, identity, pointer: view.pointer };
}

function change(type: FoundChange['type'], pointer: string, what: string, oldValue: string, newValue: string): FoundChange {
  return { type, field: [], pointer, what, oldValue, newValue };
}

function refusesEverything(ref: SchemaRef): boolean {
  return ref.some((link) => link.node === false);
}

/** A located schema as a one-link reference. */
export function schemaRef(node: JsonValue, pointer: string): SchemaLink[] {
  return [{ node, pointer }];
}
