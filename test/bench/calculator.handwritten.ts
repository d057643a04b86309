import { randomUUID } from 'node:crypto';

/**
 * The calculator endpoint written by hand, with the production server's answers, for the bare
 * Fastify and Express baselines: what the kit's layers are measured against.
 */
const OPERATIONS = ['add', 'subtract', 'multiply', 'divide'] as const;
type Operation = (typeof OPERATIONS)[number];
const SYMBOLS: Record<Operation, string> = { add: '+', subtract: '-', multiply: '×', divide: '÷' };
const NUMERIC = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  requestId: string;
}

const missing = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const toNumber = (v: unknown): unknown =>
  typeof v === 'string' && NUMERIC.test(v) ? Number(v) : v;

export function calculate(
  body: unknown,
  query: Record<string, unknown>,
  started: number,
  incomingId?: string,
): Answer {
  const requestId = incomingId && /^[\w.:-]{1,128}$/.test(incomingId) ? incomingId : randomUUID();
  const meta = (): Record<string, unknown> => ({
    timestamp: Date.now(),
    requestId,
    executionTime: Math.round((performance.now() - started) * 100) / 100,
  });
  const fail = (status: number, error: string, message: string, data?: unknown): Answer => ({
    status,
    requestId,
    body: {
      success: false,
      error,
      message,
      statusCode: status,
      ...(data !== undefined && { data }),
      metadata: meta(),
    },
  });
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    return fail(400, 'Request body must be a JSON object', 'Request body must be a JSON object');
  }
  const bag = (body ?? {}) as Record<string, unknown>;
  const params = (Object.hasOwn(bag, 'params') ? bag.params : bag) as Record<string, unknown>;
  const read = (name: string): unknown => (missing(params[name]) ? query[name] : params[name]);
  const problems: { name: string; message: string; shown: string }[] = [];
  const operation = read('operation');
  const a = toNumber(read('a'));
  const b = toNumber(read('b'));
  if (missing(operation))
    problems.push({
      name: 'operation',
      message: 'operation is required',
      shown: 'operation is required',
    });
  else if (!OPERATIONS.includes(operation as Operation)) {
    problems.push({
      name: 'operation',
      message: `operation must be one of: ${OPERATIONS.join(', ')}`,
      shown: `Invalid operation: ${String(operation)}`,
    });
  }
  for (const [name, value] of [
    ['a', a],
    ['b', b],
  ] as const) {
    if (missing(value))
      problems.push({ name, message: `${name} is required`, shown: `${name} is required` });
    else if (typeof value !== 'number' || !Number.isFinite(value)) {
      problems.push({
        name,
        message: `${name} must be a valid number`,
        shown: `Invalid ${name}: ${String(value)}`,
      });
    }
  }
  if (problems.length > 0) {
    return fail(
      400,
      problems.map((p) => p.message).join(', '),
      problems.map((p) => p.shown).join(', '),
      {
        invalidParams: problems.map((p) => p.name),
      },
    );
  }
  const op = operation as Operation;
  const [x, y] = [a as number, b as number];
  if (op === 'divide' && y === 0) {
    return fail(400, 'Division by zero is not allowed', 'Cannot divide by zero', {
      invalidParams: ['b'],
    });
  }
  const result =
    op === 'add' ? x + y : op === 'subtract' ? x - y : op === 'multiply' ? x * y : x / y;
  if (!Number.isFinite(result)) {
    return fail(
      400,
      'The result is too large to represent',
      'The result is too large to represent',
      { invalidParams: ['a', 'b'] },
    );
  }
  return {
    status: 200,
    requestId,
    body: {
      success: true,
      data: { operation: op, a: x, b: y, result },
      message: `${x} ${SYMBOLS[op]} ${y} = ${result}`,
      statusCode: 200,
      metadata: meta(),
    },
  };
}

export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers':
    'Content-Type, x-user-address, x-wallet-address, x-source-chain, x-chain-id, x-destination-chain, x-request-id, x-sherry-proxy, x-sherry-version, x-timestamp, x-sdk-version',
  'access-control-expose-headers':
    'x-request-id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
};
