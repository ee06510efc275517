/** The database URL: checked once at start, and shown without its password. Imports nothing of the server (config.ts uses it). */

/**
 * Query parameters that carry a secret: node-postgres (like libpq) takes `?password=` as the
 * password, and `sslpassword` unlocks the client key.
 */
const SECRET_PARAMETERS = ['password', 'sslpassword'];

/** The URL for logs and messages: the password is never shown. */
export function redactDatabaseUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password !== '') url.password = '***';
    for (const name of SECRET_PARAMETERS) {
      if (url.searchParams.has(name)) url.searchParams.set(name, '***');
    }
    return url.toString();
  } catch {
    return '(unparseable database URL)';
  }
}

/** Checks the URL's shape once, at start; the message names the option. */
export function checkDatabaseUrl(databaseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return 'databaseUrl is not a URL: give postgres://user:password@host:5432/database';
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    return `databaseUrl must start with postgres:// or postgresql:// (got "${url.protocol}//")`;
  }
  return undefined;
}
