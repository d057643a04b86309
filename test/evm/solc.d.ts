/** The npm Solidity compiler (solc-js, WebAssembly): only the call the tests use. */
declare module 'solc' {
  export function compile(input: string): string;
  export function version(): string;
}
