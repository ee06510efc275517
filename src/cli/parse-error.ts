/**
 * clipanion's parse errors, made one line: they list every candidate usage over several lines,
 * and a missing required option reads "Command not found". CI logs need the one fact that matters.
 */
import { oneLine } from './failure';

interface Candidate {
  usage: string;
  reason: string | null;
}

/** The one-line message for an error thrown while parsing `argv`, prefixed with the command name. */
export function describeParseError(error: unknown, argv: readonly string[]): string {
  const candidates = (error as { candidates?: Candidate[] }).candidates;
  if (!Array.isArray(candidates) || candidates.length === 0) {
    return `svc: ${firstLine(error)}`;
  }
  const reasons = new Set(candidates.map((candidate) => candidate.reason));
  if (reasons.size === 1 && candidates[0]!.reason !== null) {
    const name = commandNameOf(candidates[0]!.usage);
    return `${name}: ${withoutFinalPeriod(candidates[0]!.reason)} (see "${name} --help")`;
  }
  if (candidates.length === 1) {
    const name = commandNameOf(candidates[0]!.usage);
    if (startsWithCommand(argv, name)) {
      const missing = missingRequiredOptions(candidates[0]!.usage, argv);
      const what = missing.length > 0 ? `missing required option ${missing.join(', ')}` : 'incomplete command line';
      return `${name}: ${what} (see "${name} --help")`;
    }
    return `svc: unknown command "${argv.join(' ')}"; did you mean "${name}"? (see "svc --help")`;
  }
  return `svc: unknown command "${argv.join(' ')}" (see "svc --help" for the list of commands)`;
}

/** `svc register-schema <schema-id> ...` → `svc register-schema`. */
function commandNameOf(usage: string): string {
  const words: string[] = [];
  for (const word of usage.split(' ')) {
    if (/^[<[-]/.test(word)) break;
    words.push(word);
  }
  return words.join(' ');
}

function startsWithCommand(argv: readonly string[], name: string): boolean {
  const path = name.split(' ').slice(1);
  return path.every((word, i) => argv[i] === word);
}

/** Required options are shown as `<-s,--schema #0>` in a usage line; those absent from argv are missing. */
function missingRequiredOptions(usage: string, argv: readonly string[]): string[] {
  const missing: string[] = [];
  for (const match of usage.matchAll(/<((?:-[^\s>#]+,?)+) #\d+>/g)) {
    const names = match[1]!.split(',');
    const given = argv.some((arg) => names.some((name) => arg === name || arg.startsWith(`${name}=`)));
    if (!given) missing.push(names[names.length - 1]!);
  }
  return missing;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return withoutFinalPeriod(oneLine(message.split('\n\n')[0] ?? message));
}

function withoutFinalPeriod(text: string): string {
  return text.replace(/\.$/, '');
}
