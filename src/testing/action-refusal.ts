import { ActionException } from '../contract/action.exception';

/** The ActionException a call throws (synchronously or not); fails when it throws nothing or something else. */
export async function refusal(run: () => unknown): Promise<ActionException> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ActionException) return error;
    throw error;
  }
  throw new Error('expected an ActionException');
}
