import { performance } from 'node:perf_hooks';

/** An answer read in full, with the time it took. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  ms: number;
}

/** Why a request got no answer: the deadline passed, or the connection failed. */
export class NoAnswer extends Error {
  constructor(
    message: string,
    readonly ms: number,
  ) {
    super(message);
  }
}

/**
 * One request, answered in full (body included) within `maxMs` or abandoned: a deployment that
 * answers later fails the check anyway, so waiting longer would only slow the report.
 */
export async function timedRequest(url: string, init: RequestInit, maxMs: number): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      signal: AbortSignal.timeout(maxMs),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      ms: performance.now() - started,
    };
  } catch (error) {
    const ms = performance.now() - started;
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new NoAnswer(`no answer within ${maxMs} ms`, ms);
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new NoAnswer(`no answer: ${cause?.code ?? cause?.message ?? String(error)}`, ms);
  }
}

/** The answer's body as JSON, or undefined when it is not JSON. */
export function jsonOf(answer: Answer): unknown {
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    return undefined;
  }
}
