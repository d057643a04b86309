import type { ActionDeclaration, ActionParameter } from '../contract/action.types';
import { getDeclaredParams } from './action-param.decorator';
import { changesFixedValue, convertParam } from './param-conversion';
import { invalidParams, type ParamProblem } from '../contract/action.exception';
import type { ActionRequest } from './action-request';
import { validateParams } from './params/compiled-validation';
import { isBodyOnly, isSenderDefault } from './sensitive-params';

/** An `address` defaulting to `'sender'` defaults, for this request, to the acting user. */
function effectiveParam(param: ActionParameter, request: ActionRequest): ActionParameter {
  return isSenderDefault(param) ? { ...param, value: request.context.userAddress } : param;
}

/**
 * Converts and validates an action's parameters with the rules its params class declares.
 * Names come from the declaration, so keys the action did not declare never reach the instance;
 * a `fixed` parameter always holds its declared value, and a request sending another is refused.
 */
export function buildParams<P extends object>(
  declaration: ActionDeclaration<P>,
  request: ActionRequest,
  /** Parameters left unread and unjudged (the boot's sample check skips uploads). */
  skip: (param: ActionParameter) => boolean = () => false,
): P {
  const paramsClass = declaration.params;
  if (!paramsClass) return {} as P;
  const instance = new paramsClass() as Record<string, unknown>;
  const declared = getDeclaredParams(paramsClass).filter((param) => !skip(param));
  const problems = new Map<string, ParamProblem>();
  for (const declaredParam of declared) {
    const param = effectiveParam(declaredParam, request);
    let sent = request.input(param.name, !isBodyOnly(param));
    // The SDK sends an empty parameter's default: the word itself means the acting user.
    if (isSenderDefault(declaredParam) && sent === 'sender') sent = undefined;
    if (param.fixed && changesFixedValue(param, sent)) {
      problems.set(param.name, {
        name: param.name,
        ...(!param.sensitive && { value: sent }),
        message: `${param.name} cannot be changed`,
      });
    }
    instance[param.name] = convertParam(param, param.fixed ? undefined : sent);
  }
  // validateSync(instance, { stopAtFirstError: true, forbidUnknownValues: false }), compiled once per class.
  const errors = validateParams(instance);
  for (const error of errors) {
    if (problems.has(error.property) || !declared.some((p) => p.name === error.property)) continue;
    const sensitive = declared.some((p) => p.name === error.property && p.sensitive);
    problems.set(error.property, {
      name: error.property,
      // A secret is not echoed back in the error (nor, with it, into any log of the answer).
      ...(!sensitive && { value: error.value }),
      message: Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid`,
    });
  }
  if (problems.size > 0) {
    // In declaration order, as the contract's examples list them.
    const ordered = declared.map((p) => problems.get(p.name)).filter((p) => p !== undefined);
    throw invalidParams(ordered);
  }
  return instance as P;
}
