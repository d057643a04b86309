import Fastify from 'fastify';
import { calculate, CORS_HEADERS } from './calculator.handwritten';

/** Baseline: the calculator on bare Fastify, no Nest, no kit. */
const app = Fastify({ logger: false });
app.post('/api/calculator', (req, reply) => {
  const header = req.headers['x-request-id'];
  const answer = calculate(
    req.body,
    req.query as Record<string, unknown>,
    performance.now(),
    typeof header === 'string' ? header : undefined,
  );
  void reply
    .code(answer.status)
    .headers({ ...CORS_HEADERS, 'x-request-id': answer.requestId })
    .send(answer.body);
});
app
  .listen({ port: Number(process.env.PORT ?? 3100), host: '127.0.0.1' })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
