import { HttpException, HttpStatus } from '@nestjs/common';

export interface ActionErrorOptions {
  /** User-readable text; defaults to the error text. */
  message?: string;
  /** Context for the client, for instance the offending parameters. */
  data?: unknown;
  /** Stable code for transaction-mode bodies; defaults from the status. */
  code?: string;
  /** What went wrong in a developer's terms: logged, and shown only in development. */
  details?: string;
}

/** An error an action means to show its user: the filters render it in the action's mode. */
export class ActionException extends HttpException {
  constructor(
    status: HttpStatus,
    /**
     * The developer-facing error text: logged, the `error` field of a transaction-mode body, and
     * the message when `details.message` gives none.
     */
    readonly error: string,
    /**
     * What the user reads, the client's context, the stable code and the developer's details,
     * rendered by the filters in the action's mode.
     */
    readonly details: ActionErrorOptions = {},
  ) {
    super(error, status);
  }
}

export interface ParamProblem {
  name: string;
  message: string;
  /** What was sent, when it was a scalar: echoed in the user-readable message. */
  value?: unknown;
}

const MAX_ECHO = 64;

function describe({ name, message, value }: ParamProblem): string {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    return message;
  }
  const text = String(value);
  return `Invalid ${name}: ${text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}…` : text}`;
}

/** A 400 listing every failing parameter, messages joined with ", " as the contract shows. */
export function invalidParams(problems: readonly ParamProblem[]): ActionException {
  return new ActionException(HttpStatus.BAD_REQUEST, problems.map((p) => p.message).join(', '), {
    message: problems.map(describe).join(', '),
    data: { invalidParams: [...new Set(problems.map((p) => p.name))] },
    code: 'VALIDATION_ERROR',
  });
}
