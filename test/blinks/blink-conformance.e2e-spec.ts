import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import { checkBlink } from '../../src/testing/conformance/conformance.blink';
import { actionUnderTest } from '../../src/testing/conformance/conformance.target';
import { createTestApp } from '../support/app.factory';

/** The conformance kit's `blink` rule finds what a wrong blink would break, and nothing else. */
describe('The conformance kit’s blink rule', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({
      actions: [CalculatorModule, SendTokenModule, MyTransactionsModule],
    });
  });
  afterAll(() => app.close());

  it('finds nothing wrong with a data action’s blink', async () => {
    expect(await checkBlink(actionUnderTest(app, '/api/calculator'))).toEqual([]);
  });

  it('reports a blink whose fields or mode differ from the declaration', async () => {
    const target = actionUnderTest(app, '/api/calculator');
    const problems = (
      await checkBlink({ ...target, dataMode: false, params: target.params.slice(1) })
    ).map((f) => f.problem);
    expect(problems).toEqual(
      expect.arrayContaining([
        'its linked action is post, not transaction',
        'its fields operation, a, b are not the declared a, b',
      ]),
    );
  });

  it('reports a sample the blink does not answer, and headers for other chains', async () => {
    const target = actionUnderTest(app, '/api/calculator');
    const declaration = { ...target.declaration, chains: { source: 1 } };
    const problems = (
      await checkBlink({ ...target, declaration, samples: [{ params: { operation: 'pow' } }] })
    ).map((f) => f.problem);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^GET \/api\/blinks\/calculator has X-Blockchain-Ids eip155:43113, not eip155:1$/,
        ),
        expect.stringMatching(/^sample \{"operation":"pow"\} was answered 400 \{"message":/),
      ]),
    );
  });

  it('signs in through a verified action’s blink, then finds nothing wrong', async () => {
    expect(await checkBlink(actionUnderTest(app, '/api/my-transactions'))).toEqual([]);
  });

  it('reports a verified action whose blink does not open with its sign-in, or shows other fields', async () => {
    const calculator = actionUnderTest(app, '/api/calculator');
    const declaration = { ...calculator.declaration, user: 'verified' as const };
    const opens = (await checkBlink({ ...calculator, declaration })).map((f) => f.problem);
    expect(opens).toEqual([
      expect.stringMatching(/^it needs a verified user, but opens with post \/api\/blinks\/calc/),
      expect.stringMatching(/^without a session it answered 400 /),
      expect.stringMatching(/^its sign-in answered 404 .*has no sign-in/),
    ]);
    const mine = actionUnderTest(app, '/api/my-transactions');
    const fields = (await checkBlink({ ...mine, params: [] })).map((f) => f.problem);
    expect(fields).toEqual(['signed in, its fields limit are not the declared ']);
  });
});
