/** Headings that group the commands in `svc --help`. */
export const CATEGORIES = Object.freeze({
  local: 'Local commands (no server needed)',
  client: 'Client commands (talk to an svc server)',
});
