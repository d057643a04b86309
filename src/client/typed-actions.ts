import type { ActionResult, DynamicActionDataResponse } from '../contract/action.types';
import type { DynamicActionResult, ExecuteDynamicOptions } from './client.types';

/**
 * Types the generated client (`npm run client`) builds on. Type-only: nothing here runs, so a
 * browser bundle of the generated module holds `executeDynamic` and the actions' metadata alone.
 */

/** The `data` a data-mode handler answers, read from its return type (`ActionResult<T>`). */
export type AnswerData<H> = H extends (...args: never[]) => infer R
  ? Awaited<R> extends ActionResult<infer T>
    ? T
    : unknown
  : unknown;

/** What a data-mode action's function resolves to: the envelope, `data` typed by the handler. */
export type DataAnswer<H> = DynamicActionDataResponse<AnswerData<H>>;

/** What a transaction-mode action's function resolves to. */
export type TransactionAnswer = DynamicActionResult;

/** The options of an action that needs the acting user: `userAddress` is then required. */
export type UserOptions = ExecuteDynamicOptions & { userAddress: string };

/** A hex address, as the platform sends one. */
export type HexAddress = `0x${string}`;
