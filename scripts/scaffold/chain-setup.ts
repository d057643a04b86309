/**
 * The e2e spec's set-up for an action that needs the chain: a local chain passing for the
 * declared one (startTestChain: contracts, funded users, its chain file), the app on it.
 * `why` is the comment the spec carries above it.
 */
export function chainSetup(why: string): { declare: string; start: string; stop: string } {
  return {
    declare: '  let testChain: TestChain;\n',
    start: `  beforeAll(async () => {
    // ${why}
    testChain = await startTestChain();
    app = await createTestApp({ env: testChain.env });
  }, 120_000);
`,
    stop: `  afterAll(async () => {
    await app?.close();
    await testChain?.stop();
  });
`,
  };
}
