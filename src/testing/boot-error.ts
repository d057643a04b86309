/** The boot error a configuration loader throws, as main.ts prints it; fails when it throws none. */
export function bootError(load: () => unknown): string {
  try {
    load();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}
