/**
 * OpenAPI patterns are ECMA-262, and RE2 runs them (src/shared/regex.ts): `\s`, `\S` and `.` must
 * mean there what they mean to ECMA-262, whose `\s` takes every Unicode space and line terminator
 * and whose `.` stops at `\r`, U+2028 and U+2029 too. Each pattern's verdict is compared with the
 * JavaScript engine's on texts where the two engines' own readings differ.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planPattern, withEcmaClasses } from '../../src/shared/regex';

const TEXTS = [
  '', 'a', 'ab', 'a b', 'a\u00a0b', 'a\u3000b', 'a\u000bb', 'a\u2028b', 'a\u2029b', 'a\rb', 'a\nb', 'a\tb', '\ufeff', '\u1680', '\u202f',
  ' ', '\u00a0', '\n', 'x', '.', '-', ']', '\\', '😀',
];

const PATTERNS = [
  String.raw`^\S+$`, String.raw`^.+$`, String.raw`^\s$`, String.raw`^[\s]$`, String.raw`^[^\s]+$`, String.raw`^[\Sx]+$`,
  String.raw`^[\s\d]+$`, String.raw`^a.b$`, String.raw`^a\.b$`, String.raw`^[.]$`, String.raw`^[]$`, String.raw`^[^]+$`,
  String.raw`^[\]\\-]+$`, String.raw`^\\s$`, String.raw`^(?:\s*\S)+$`, String.raw`^[a-z\s]*$`,
];

test('patterns run by RE2 give the verdicts ECMA-262 gives on whitespace, line terminators and dots', () => {
  for (const pattern of PATTERNS) {
    const plan = planPattern(pattern);
    assert.equal(plan.engine, 're2', pattern);
    if (plan.engine !== 're2') continue;
    const ecma = new RegExp(pattern, 'u');
    for (const text of TEXTS) assert.equal(plan.matcher.test(text), ecma.test(text), `${pattern} on ${JSON.stringify(text)}`);
  }
});

test('a \\S in a negated class, which RE2 cannot say, runs on the JavaScript engine when proven safe', () => {
  const pattern = String.raw`^[^\S\n]+$`; // whitespace but a line feed
  assert.equal(withEcmaClasses(pattern), undefined);
  const plan = planPattern(pattern);
  assert.equal(plan.engine, 'ecma');
  if (plan.engine !== 'ecma') return;
  assert.equal(plan.matcher.test(' \t\u00a0'), true);
  assert.equal(plan.matcher.test(' \n'), false);
});

test('escapes and classes other than \\s, \\S and . are left as written', () => {
  assert.equal(withEcmaClasses(String.raw`^\d{3}-[A-Z\-]+\.json$`), String.raw`^\d{3}-[A-Z\-]+\.json$`);
  assert.equal(withEcmaClasses('^[a-'), '^[a-', 'an unterminated class is left for RE2 to refuse');
});
