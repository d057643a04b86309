import { HttpStatus } from '@nestjs/common';
import { type AbiFunction, getAbiItem } from 'viem';
import { ActionException } from '../../contract/action.exception';
import type { ContractCall } from './transaction-spec';

/**
 * The action's code asked for something the builder cannot do: the team's bug, not a secret, so
 * the answer names the cause in every environment.
 */
export function builderMisuse(cause: string): ActionException {
  return new ActionException(
    HttpStatus.INTERNAL_SERVER_ERROR,
    `Transaction builder misuse: ${cause}`,
    {
      code: 'BUILDER_MISUSE',
    },
  );
}

/** Resolved once per call object: a build reads its function several times. */
const resolved = new WeakMap<ContractCall, AbiFunction>();

/**
 * The one ABI function a call encodes: `call.abi` itself, or the function `call.functionName`
 * names in a whole ABI (the overload its arguments fit). Anything else (a whole ABI with no
 * name, a name it lacks, no function at all) is the action's bug, said in words.
 */
export function callFunction(call: ContractCall): AbiFunction {
  const known = resolved.get(call);
  if (known) return known;
  const { abi, functionName } = call as { abi: unknown; functionName?: unknown };
  let found: unknown = abi;
  if (Array.isArray(abi)) {
    if (typeof functionName !== 'string') {
      throw builderMisuse(
        `call.abi is a whole ABI (${abi.length} entries) and call.functionName is not set: ` +
          "name the function ({ abi: erc20Abi, functionName: 'transfer', args }) or pass that " +
          "one function (parseAbiItem('function transfer(address to, uint256 amount)'))",
      );
    }
    found = getAbiItem({ abi, name: functionName, args: call.args });
    if ((found as { type?: unknown } | undefined)?.type !== 'function') {
      throw builderMisuse(`call.abi has no function named "${functionName}"`);
    }
  }
  const fn = found as Partial<AbiFunction> | undefined;
  if (fn?.type !== 'function' || typeof fn.name !== 'string' || !Array.isArray(fn.inputs)) {
    throw builderMisuse(
      'call.abi must be one ABI function (parseAbiItem(…)) or a whole ABI with call.functionName',
    );
  }
  if (typeof functionName === 'string' && functionName !== fn.name) {
    throw builderMisuse(`call.functionName "${functionName}" is not call.abi's (${fn.name})`);
  }
  resolved.set(call, fn as AbiFunction);
  return fn as AbiFunction;
}

/** Display args named like the call's own would replace, in `params.args`, what is signed. */
export function assertNoShadowing(call: ContractCall, display: Record<string, unknown> = {}): void {
  const fn = callFunction(call);
  const inputs = fn.inputs.map((input, i) => input.name || `arg${i}`);
  const names = Object.keys(display).filter((name) => inputs.includes(name));
  if (names.length === 0) return;
  const quoted = names.map((name) => `"${name}"`).join(', ');
  const plural = names.length > 1 ? 's' : '';
  throw builderMisuse(
    `display.args ${quoted} would replace the argument${plural} of the same name of ` +
      `${fn.name}(${inputs.join(', ')}) in params.args: give the display value${plural} another name`,
  );
}

/** TX_FILL=estimate reads the signer's nonce and estimates as it: the action must name it. */
export function fillNeedsSigner(): never {
  throw builderMisuse(
    'TX_FILL=estimate needs the address that will sign: declare requiresUser or set spec.from',
  );
}

/** The acting user's address is what the transaction is checked as: without it, nothing to check. */
export function signerNeeded(): ActionException {
  return new ActionException(
    HttpStatus.BAD_REQUEST,
    'x-user-address header is required: the transaction is checked as its signer would send it',
    { data: { invalidParams: ['x-user-address'] }, code: 'VALIDATION_ERROR' },
  );
}
