/** The npm Solidity compiler (solc-js, WebAssembly): only the call the tests use. */
declare module 'solc' {
  export type ImportResult = { contents: string } | { error: string };
  export function compile(
    input: string,
    callbacks?: { import?: (path: string) => ImportResult },
  ): string;
  export function version(): string;
}
