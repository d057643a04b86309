import type { ActionDeclaration, ActionSample } from '../contract/action.types';
import { ActionException } from '../contract/action.exception';
import { readAddress } from '../contract/address';
import { buildParams } from './params-builder';
import { isUploadType } from './params';

/** How a declaration's samples are named in a boot error: by position and, if any, a parameter. */
const sampleName = (index: number): string => `sample ${index + 1}`;

/**
 * A declared sample run through the request's own conversion and validation, at boot: a value
 * not among a select's options (or otherwise refused) would fail every tool that sends it, so
 * the boot stops naming the sample. Chains and answers are the conformance kit's to check.
 */
function sampleProblems(
  declaration: ActionDeclaration,
  sample: ActionSample,
  index: number,
): string[] {
  const name = sampleName(index);
  const problems: string[] = [];
  const user = sample.userAddress === undefined ? undefined : readAddress(sample.userAddress);
  if (sample.userAddress !== undefined && !user) {
    problems.push(`${name} has a userAddress that is not an address`);
  }
  if (declaration.requiresUser && sample.userAddress === undefined) {
    problems.push(`${name} has no userAddress, which the action requires`);
  }
  const params = (sample.params ?? {}) as Record<string, unknown>;
  try {
    buildParams(
      declaration,
      {
        context: { requestId: 'boot', ...(user && { userAddress: user }) },
        input: (param) => params[param],
      },
      (param) => isUploadType(param.type),
    ); // samples carry no files: the conformance kit adds them
  } catch (error) {
    if (!(error instanceof ActionException)) throw error;
    problems.push(`${name} is refused by the action's own rules: ${error.message}`);
  }
  return problems;
}

/** Every problem of a declaration's samples, each naming the sample. */
export function checkSamples(declaration: ActionDeclaration): string[] {
  return (declaration.samples ?? []).flatMap((sample, index) =>
    sampleProblems(declaration, sample, index),
  );
}
