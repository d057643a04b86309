import express from 'express';
import { calculate, CORS_HEADERS } from './calculator.handwritten';

/** Baseline: the calculator on Express 5, no Nest, no kit. */
const app = express();
app.disable('x-powered-by');
app.use(express.json());
app.post('/api/calculator', (req, res) => {
  const header = req.headers['x-request-id'];
  const answer = calculate(
    req.body as unknown,
    req.query,
    performance.now(),
    typeof header === 'string' ? header : undefined,
  );
  res
    .status(answer.status)
    .set({ ...CORS_HEADERS, 'x-request-id': answer.requestId })
    .json(answer.body);
});
const server = app.listen(Number(process.env.PORT ?? 3101), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
