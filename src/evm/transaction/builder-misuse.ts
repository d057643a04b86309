import { HttpStatus } from '@nestjs/common';
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

/** Display args named like the call's own would replace, in `params.args`, what is signed. */
export function assertNoShadowing(call: ContractCall, display: Record<string, unknown> = {}): void {
  const inputs = call.abi.inputs.map((input, i) => input.name || `arg${i}`);
  const names = Object.keys(display).filter((name) => inputs.includes(name));
  if (names.length === 0) return;
  const quoted = names.map((name) => `"${name}"`).join(', ');
  const plural = names.length > 1 ? 's' : '';
  throw builderMisuse(
    `display.args ${quoted} would replace the argument${plural} of the same name of ` +
      `${call.abi.name}(${inputs.join(', ')}) in params.args: give the display value${plural} another name`,
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
