// swagger2openapi ships no types; only the call the intake uses is declared.
declare module 'swagger2openapi' {
  interface ConvertOptions {
    patch?: boolean;
    warnOnly?: boolean;
  }
  interface ConvertResult {
    openapi: unknown;
  }
  export function convertObj(swagger: unknown, options: ConvertOptions): Promise<ConvertResult>;
  const converter: { convertObj: typeof convertObj };
  export default converter;
}
