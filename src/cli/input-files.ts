/** Local files named on the command line: size-checked before reading, failures named by what the file is. */
import { once } from 'node:events';
import { createReadStream, createWriteStream, type ReadStream, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { invalidArgument, isSvcError, limitExceeded } from '../shared/errors';
import { formatBytes } from '../shared/limits';
import { UNANSWERED_CODES, UnansweredError } from './unanswered';

export interface FileLimit {
  maxBytes: number;
  /** The LIMITS entry, named in the message. */
  limitName: string;
}

/** UTF-8 text of a file; `what` names it in messages (`schema file`, `--request file`). */
export async function readTextFile(filePath: string, what: string, limit: FileLimit): Promise<string> {
  try {
    const stat = await fs.stat(filePath);
    if (stat.isDirectory()) throw new UnansweredError(UNANSWERED_CODES.unreadable, `cannot read ${what} "${filePath}": it is a folder`);
    if (stat.size > limit.maxBytes) {
      throw limitExceeded(
        `${what} "${filePath}" is ${formatBytes(stat.size)}, over the limit of ${formatBytes(limit.maxBytes)} (${limit.limitName})`,
      );
    }
    return await fs.readFile(filePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (isSvcError(error) || error instanceof UnansweredError || code === undefined) throw error;
    throw new UnansweredError(UNANSWERED_CODES.unreadable, `cannot read ${what} "${filePath}": ${systemErrorText(code, error as Error)}`, { cause: error });
  }
}

/** A file opened to be read as a stream, once it is open: a missing or unreadable file fails here, named. */
export function openReadStream(filePath: string, what: string): Promise<ReadStream> {
  return whenOpen(createReadStream(filePath), (reason, cause) => new UnansweredError(UNANSWERED_CODES.unreadable, `cannot read ${what} "${filePath}": ${reason}`, { cause }));
}

/** A file opened (created or emptied) to be written as a stream, once it is open: a folder that is not there fails here, named. */
export function openWriteStream(filePath: string, what: string): Promise<WriteStream> {
  return whenOpen(createWriteStream(filePath), (reason, cause) => new Error(`cannot write ${what} "${filePath}": ${reason}`, { cause }));
}

async function whenOpen<T extends ReadStream | WriteStream>(stream: T, failure: (reason: string, cause: unknown) => Error): Promise<T> {
  try {
    await once(stream, 'ready');
    return stream;
  } catch (error) {
    throw failure(systemErrorText((error as NodeJS.ErrnoException).code ?? '', error as Error), error);
  }
}

/** A file holding one JSON value. */
export async function readJsonFile(filePath: string, what: string, limit: FileLimit): Promise<unknown> {
  const text = await readTextFile(filePath, what, limit);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidArgument(`${what} "${filePath}" is not valid JSON: ${(error as Error).message}`);
  }
}

function systemErrorText(code: string, error: Error): string {
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return error.message;
  }
}
