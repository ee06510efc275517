/**
 * The invariant that proves fixture generation: every fixture validates as valid=true through the
 * validation engine against the same document. Checked for every operation of every document in
 * test/fixtures/fixture-corpus (real-world 2.0/3.0/3.1 documents and hand-written hard cases), with
 * and without examples. The only failures allowed are listed below, each with its reason; a listed
 * case that starts passing fails the test too, so the list cannot go stale.
 * Pass rates per document: `node dist/test/helpers/fixture-pass-rate.js`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkDocument, corpusDocuments, type OperationOutcome } from '../helpers/fixture-corpus';

interface KnownException {
  document: string;
  method: string;
  path: string;
  /** What happens: GenerateFixture refuses, or the engine rejects a fixture that is valid OpenAPI. */
  outcome: 'refused' | 'invalid';
  /** Why, and what GenerateFixture answers instead. */
  reason: string;
}

const NO_FINITE_VALUE = 'its schema admits no value; GenerateFixture refuses with "no valid ... can be generated" instead of returning an invalid fixture';

const KNOWN_EXCEPTIONS: KnownException[] = [
  {
    document: 'readme-oas-examples/3.0/circular-request-bodies.json',
    method: 'POST',
    path: '/direct',
    outcome: 'refused',
    reason: `TreeNode requires "parent", itself a required-parent TreeNode, so no finite response body exists: ${NO_FINITE_VALUE}`,
  },
  ...['3.0', '3.1'].flatMap((version) =>
    ['PUT', 'PATCH'].map((method) => ({
      document: `readme-oas-examples/${version}/schema-types.json`,
      method,
      path: '/anything/quirks/polymorphism',
      outcome: 'refused' as const,
      reason: `the required request body is allOf [string, integer] (the document's own "incompatible" quirk): ${NO_FINITE_VALUE}`,
    })),
  ),
];

function knownException(outcome: OperationOutcome): KnownException | undefined {
  return KNOWN_EXCEPTIONS.find(
    (known) => known.document === outcome.document && known.method === outcome.method && known.path === outcome.path,
  );
}

const isKnown = (outcome: OperationOutcome) => knownException(outcome) !== undefined;

function describeFailure(outcome: OperationOutcome): string {
  const mode = outcome.useExamples ? 'with examples' : 'generated';
  return `${outcome.kind}: ${outcome.method} ${outcome.path} (${mode})\n    ${outcome.errors.slice(0, 5).join('\n    ')}`;
}

describe('fixture invariant: every fixture validates against its own document', () => {
  for (const document of corpusDocuments()) {
    it(document, async () => {
      const outcomes = await checkDocument(document);
      assert.ok(outcomes.length > 0, 'the document has operations');

      const unexplained = outcomes.filter((o) => (o.kind === 'invalid' || o.kind === 'refused') && !isKnown(o));
      assert.deepEqual(unexplained.map(describeFailure), [], 'fixtures the validation engine rejects');

      for (const outcome of outcomes.filter(isKnown)) {
        const expected = knownException(outcome)!.outcome;
        assert.equal(outcome.kind, expected, `listed as ${expected} but ${outcome.kind}: ${outcome.method} ${outcome.path}`);
        if (expected === 'refused') assert.match(outcome.errors[0]!, /^no valid .* can be generated: /);
      }
      for (const outcome of outcomes.filter((o) => o.kind === 'not-json')) {
        assert.match(outcome.errors[0]!, /offers no media type fixtures can be written for/, 'non-JSON bodies are refused clearly');
      }
    });
  }

  it('lists only exceptions of documents in the corpus', () => {
    const documents = new Set(corpusDocuments());
    for (const known of KNOWN_EXCEPTIONS) assert.ok(documents.has(known.document), known.document);
  });
});
