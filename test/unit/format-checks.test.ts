/**
 * Formats on values of any length (format-checks.ts): when V8 runs out of stack on a format's
 * expression, RE2 runs the same expression and must give the verdict V8 would have given. Checked
 * here by forcing the RE2 path on short values, where V8's verdict is known, for every format the
 * fallback covers; and on values long enough to overflow V8 for real.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { fullFormats } from 'ajv-formats/dist/formats';
import { ErrorCode, SvcError } from '../../src/shared/errors';
import { stackSafeCheck } from '../../src/shared/regex';
import { AJV_FORMATS_URI_EXPRESSION, LONG_VALUE_SAFE_FORMATS } from '../../src/shared/validation/format-checks';

const outOfStack = (): boolean => {
  throw new RangeError('Maximum call stack size exceeded');
};

/** Valid and invalid values of every expression-checked format, with the characters where engines differ. */
const SAMPLES = [
  '', 'a', 'K', 'k', '\u212a', '\u017f', 's', 'S', '\ud83d\ude00', '\ud800', '\uffff', ' ', '%', '%4', '%4g', '%41',
  'https://example.com', 'https://example.com/a b', 'HTTPS://EXAMPLE.COM/PATH?Q=1#F', 'http://[::1]:80/x', 'http://[v1.x]/',
  'http://1.2.3.4/', 'http://user:pw@host:8080/p/a/t/h?query=1&b#frag', 'mailto:someone@example.com', 'urn:isbn:0451450523',
  'http://\u212aelvin.example/', 'http://example.com/\u017fpace', '//example.com/x', '/relative/path', 'relative', '#frag', '?q',
  'a:b', 'a:', ':', '1a:b', 'http://exa mple.com', 'http://example.com/%zz', 'http://example.com/"quoted"',
  'user@example.com', 'first.last@sub.example.org', 'a..b@example.com', '@example.com', 'user@', 'us\u212aer@example.com',
  'user@-example.com', 'user@example', 'x@y.z', '/a/b', '/a~0b/c~1d', '/a~2', 'a/b', '#/a/b', '#/a%20b', '#/a b', '0', '0/a',
  '1#', '01/a', '2/a~1b', 'http://example.com/{id}', 'http://example.com/{+path}', '{a,b}', '{', '}', 'x{y',
  '2024-01-01T00:00:00Z', '123e4567-e89b-12d3-a456-426614174000', '::1', '127.0.0.1', 'host.example', 'P1D',
];

test('the copy of ajv-formats\' private `uri` expression is the one ajv-formats uses', () => {
  const source = fs.readFileSync(require.resolve('ajv-formats/dist/formats'), 'utf8');
  const declared = /^const URI = \/(.*)\/([a-z]*);$/m.exec(source);
  assert.ok(declared, 'ajv-formats declares `const URI = /…/` in dist/formats.js');
  assert.equal(AJV_FORMATS_URI_EXPRESSION.source, declared[1]);
  assert.equal(AJV_FORMATS_URI_EXPRESSION.flags, declared[2]);
});

test('on RE2, every expression-checked format gives the verdict V8 gives', () => {
  const covered: string[] = [];
  for (const [name, definition] of Object.entries(fullFormats)) {
    const expression = name === 'uri' ? AJV_FORMATS_URI_EXPRESSION : definition;
    if (!(expression instanceof RegExp)) continue;
    const onV8 = LONG_VALUE_SAFE_FORMATS[name]!;
    const onRe2 = stackSafeCheck(name, expression, outOfStack);
    let re2Runs = true;
    for (const value of SAMPLES) {
      let verdict: boolean;
      try {
        verdict = onRe2(value);
      } catch (error) {
        // Expressions with look-around (RE2 cannot run them) refuse instead; see the next test.
        assert.ok(error instanceof SvcError && error.code === ErrorCode.LIMIT_EXCEEDED, `${name}: ${String(error)}`);
        re2Runs = false;
        break;
      }
      assert.equal(verdict, onV8(value), `format "${name}" on ${JSON.stringify(value)}`);
    }
    if (re2Runs) covered.push(name);
  }
  for (const name of ['uri', 'uri-reference', 'uri-template', 'email', 'json-pointer', 'json-pointer-uri-fragment', 'relative-json-pointer']) {
    assert.ok(covered.includes(name), `format "${name}" falls back to RE2 (covered: ${covered.join(', ')})`);
  }
});

test('an expression RE2 cannot run, out of stack, is LIMIT_EXCEEDED naming the format, never a verdict', () => {
  const check = stackSafeCheck('format "url"', /^(?!x)a+$/, outOfStack);
  assert.throws(() => check('aaaa'), (error: unknown) => {
    assert.ok(error instanceof SvcError);
    assert.equal(error.code, ErrorCode.LIMIT_EXCEEDED);
    assert.equal(error.message, 'a value of 4 characters is too long to check against format "url": its expression ran out of stack and RE2 cannot run it');
    return true;
  });
});

test('values long enough to overflow V8: the verdict is the expression\'s', () => {
  const path = 'a/'.repeat(4_350_000); // 8.7 M characters
  const uri = `https://example.com/${path}`;
  assert.throws(() => (fullFormats.uri as (value: string) => boolean)(uri), RangeError, 'the value overflows V8 (else this test checks nothing)');
  assert.equal(LONG_VALUE_SAFE_FORMATS.uri!(uri), true);
  assert.equal(LONG_VALUE_SAFE_FORMATS.uri!(`${uri} `), false, 'a trailing space is not a URI character');
  assert.equal(LONG_VALUE_SAFE_FORMATS.uri!(`${uri}%zz`), false);
  const email = `${'a.'.repeat(4_350_000)}a@example.com`;
  assert.throws(() => (fullFormats.email as RegExp).test(email), RangeError);
  assert.equal(LONG_VALUE_SAFE_FORMATS.email!(email), true);
  assert.equal(LONG_VALUE_SAFE_FORMATS.email!(`${email}.`), false);
  const pointer = '/a'.repeat(4_350_000);
  assert.throws(() => (fullFormats['json-pointer'] as RegExp).test(pointer), RangeError);
  assert.equal(LONG_VALUE_SAFE_FORMATS['json-pointer']!(pointer), true);
  assert.equal(LONG_VALUE_SAFE_FORMATS['json-pointer']!(`${pointer}~2`), false);
});

test('date-time, time and uuid follow their RFCs\' grammar, not ajv-formats\' laxer reading', () => {
  const { 'date-time': dateTime, time, uuid } = LONG_VALUE_SAFE_FORMATS as Record<string, (text: string) => boolean>;
  for (const value of ['2024-01-01T10:00:00Z', '2024-01-01t10:00:00.123+05:30', '2024-02-29T23:59:59-08:00', '2016-12-31T23:59:60Z']) {
    assert.equal(dateTime!(value), true, value);
  }
  // RFC 3339 §5.6: a T (either case) between date and time, offsets ±hh:mm; ranges still checked.
  for (const value of ['2024-01-01 10:00:00Z', '2024-01-01\t10:00:00Z', '2024-01-01T10:00:00+0530', '2024-01-01T10:00:00+05', '2024-01-01T10:00:00', '2023-02-29T10:00:00Z']) {
    assert.equal(dateTime!(value), false, value);
  }
  assert.equal(time!('10:00:00.5-08:00'), true);
  for (const value of ['10:00:00+05', '10:00:00+0500', '10:00:00', '24:00:00Z']) assert.equal(time!(value), false, value);
  assert.equal(uuid!('6F1C0C5E-8A4B-4A8E-9A3E-1F2D3C4B5A69'), true);
  assert.equal(uuid!('urn:uuid:6f1c0c5e-8a4b-4a8e-9a3e-1f2d3c4b5a69'), false, 'a URN of a UUID is not its string form');
  // Long values get a verdict (no backtracking): a fraction of a million digits.
  assert.equal(dateTime!(`2024-01-01T10:00:00.${'1'.repeat(1_000_000)}Z`), true);
  assert.equal(dateTime!(`2024-01-01T10:00:00.${'1'.repeat(1_000_000)}`), false);
});

test('url: the same verdicts as ajv-formats\' expression, in time linear in the text', () => {
  const ajvUrl = fullFormats.url as RegExp;
  const url = LONG_VALUE_SAFE_FORMATS.url!;
  const pieces = ['a', 'b', '1', '0', '.', '-', ':', '@', '/', '?', '#', ' ', '\u3000', '\u00a0', '\u00e9', '%', '['];
  const starts = ['http://', 'https://', 'ftp://', 'http://a@', 'http://10.', 'http://172.16.', 'http://192.168.1.1', 'http://1.2.3.4', 'HTTP://'];
  let state = 7;
  const next = (n: number) => (state = (state * 1_103_515_245 + 12_345) & 0x7fffffff) % n;
  for (let i = 0; i < 50_000; i++) {
    let text = starts[next(starts.length)]!;
    for (let length = next(14); length > 0; length--) text += pieces[next(pieces.length)];
    assert.equal(url(text), ajvUrl.test(text), JSON.stringify(text));
  }
  for (const value of SAMPLES) assert.equal(url(value), ajvUrl.test(value), JSON.stringify(value));
  // ajv-formats' expression took 113 ms on 16,000 colons, 4 s on 100,000, 10 s and more on 200,000.
  const long = [
    `http://${':'.repeat(100_000)}`, `http://${'a:'.repeat(50_000)}`, `http://${'@a.bc/'.repeat(20_000)} `,
    `http://${'@a.bc/'.repeat(20_000)}\u3000`, `http://${'@a.bc:12/'.repeat(10_000)} `,
  ];
  for (const text of long) {
    const started = performance.now();
    assert.equal(url(text), false);
    const ms = performance.now() - started;
    assert.ok(ms < 200, `${ms.toFixed(0)} ms on ${JSON.stringify(text.slice(0, 20))}…`);
  }
  assert.equal(url(`http://user:pw@${'a.'.repeat(100_000)}com/${'x'.repeat(1_000_000)}`), true);
});
