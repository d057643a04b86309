import {
  getMetadataStorage,
  validateSync,
  ValidationTypes,
  type MetadataStorage,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from '../../config/validator-subset';
import { cacheValidationRules } from './validation-rules.cache';

type Rules = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;
type Rule = Rules[number];
type Message = Rule['message'];

/** What the kit reads of a property that failed: the fields of class-validator's ValidationError. */
export interface ParamFailure {
  property: string;
  value?: unknown;
  constraints?: Record<string, string | undefined>;
}

/** The options buildParams validates with, and the only ones the compiled form reproduces. */
const OPTIONS = { stopAtFirstError: true, forbidUnknownValues: false } as const;
/** validateSync looks a class's rules up with no schema; the typing asks for a string. */
const NO_SCHEMA = undefined as unknown as string;

/** One constraint of one rule, its implementation resolved from class-validator's container. */
interface Check {
  rule: Rule;
  validator: ValidatorConstraintInterface;
  /** The key class-validator files the failure's message under. */
  type: string;
}

/** One property, in the order class-validator visits it: conditions, then IsDefined, then the rest. */
interface PropertyPlan {
  name: string;
  conditions: ((object: object, value: unknown) => unknown)[];
  checks: Check[];
}

/** Unsupported: something only validateSync does (nested, each, contexts, several constraints). */
class Unsupported extends Error {}

const storage = getMetadataStorage();
// class-validator would search a class's rules anew per call; the cache also keys the plans below.
cacheValidationRules(storage);
// Keyed by the rule list itself: the rules cache hands out a new list once a rule is added.
const plans = new WeakMap<Rules, readonly PropertyPlan[] | null>();

/**
 * validateSync(instance, { stopAtFirstError: true, forbidUnknownValues: false }), from a plan built
 * once per params class: class-validator's executor finds, filters and groups the rules, resolves
 * each constraint from its container and builds an error object for every property on every call;
 * here only the checks themselves run. A class using what the plan does not reproduce is validated
 * by validateSync itself. Constraint implementations are taken from class-validator's container
 * when the plan is built, so a container given to useContainer later is not asked. Proof of sameness: compiled-validation.spec.ts and
 * test/kit/compiled-validation.e2e-spec.ts compare both on random declarations and inputs.
 */
export function validateParams(instance: object): readonly ParamFailure[] {
  const plan = planFor(instance.constructor);
  return plan
    ? runPlan(plan, instance as Record<string, unknown>)
    : validateSync(instance, OPTIONS);
}

/** Whether a class is validated by the compiled plan (false: by validateSync). */
export function isCompiled(paramsClass: new () => object): boolean {
  return planFor(paramsClass) !== null;
}

function planFor(target: object['constructor']): readonly PropertyPlan[] | null {
  const rules = storage.getTargetValidationMetadatas(target, NO_SCHEMA, false, false, undefined);
  let plan = plans.get(rules);
  if (plan === undefined) {
    try {
      plan = compile(rules);
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      plan = null;
    }
    plans.set(rules, plan);
  }
  return plan;
}

function compile(rules: Rules): PropertyPlan[] {
  const grouped = storage.groupByPropertyName(rules);
  return Object.keys(grouped).map((name) => {
    const conditions: PropertyPlan['conditions'] = [];
    const defined: Check[] = [];
    const custom: Check[] = [];
    for (const rule of grouped[name]) {
      if (rule.context !== undefined) throw new Unsupported();
      if (rule.type === ValidationTypes.CONDITIONAL_VALIDATION)
        conditions.push(rule.constraints[0] as PropertyPlan['conditions'][number]);
      else if (rule.type === ValidationTypes.IS_DEFINED) defined.push(...checksOf(rule));
      else if (rule.type === ValidationTypes.CUSTOM_VALIDATION) custom.push(...checksOf(rule));
      // Whitelisting marks only matter with the whitelist option, which buildParams never sets.
      else if (rule.type !== ValidationTypes.WHITELIST) throw new Unsupported();
    }
    return { name, conditions, checks: [...defined, ...custom] };
  });
}

function checksOf(rule: Rule): Check[] {
  if (rule.each) throw new Unsupported();
  const constraints = storage.getTargetValidatorConstraints(rule.constraintCls);
  if (constraints.length > 1) throw new Unsupported();
  // validateSync skips asynchronous constraints altogether.
  return constraints
    .filter((constraint) => !constraint.async)
    .map((constraint) => ({
      rule,
      validator: constraint.instance,
      type: constraint.name ? constraint.name : rule.type,
    }));
}

function runPlan(plan: readonly PropertyPlan[], object: Record<string, unknown>): ParamFailure[] {
  const failures: ParamFailure[] = [];
  for (const property of plan) {
    const value = object[property.name];
    // Every condition is called, as class-validator's map-then-reduce does.
    let canValidate: unknown = true;
    for (const condition of property.conditions)
      canValidate = condition(object, value) && canValidate;
    if (!canValidate) continue;
    const failure = firstFailure(property, object, value);
    if (failure) failures.push(failure);
  }
  return failures;
}

/** stopAtFirstError: the first failing constraint is the property's only one. */
function firstFailure(
  property: PropertyPlan,
  object: Record<string, unknown>,
  value: unknown,
): ParamFailure | undefined {
  for (const check of property.checks) {
    const { rule } = check;
    if (rule.validateIf && !rule.validateIf(object, value)) continue;
    // A promise is truthy: validateSync leaves it unawaited and reports nothing for it either.
    if (check.validator.validate(value, argumentsOf(object, rule, value))) continue;
    const constraints = { [check.type]: messageOf(check, object, value) };
    return { property: property.name, value, constraints };
  }
  return undefined;
}

function argumentsOf(object: object, rule: Rule, value: unknown): ValidationArguments {
  return {
    targetName: object.constructor ? object.constructor.name : (undefined as unknown as string),
    property: rule.propertyName,
    object,
    value,
    constraints: rule.constraints,
  };
}

/** ValidationExecutor.createValidationError's message. */
function messageOf(check: Check, object: object, value: unknown): string | undefined {
  const { rule, validator } = check;
  const args = argumentsOf(object, rule, value);
  let message: Message = rule.message || '';
  if (!rule.message && validator.defaultMessage instanceof Function)
    message = validator.defaultMessage(args);
  return replaceTokens(message, args);
}

/** ValidationUtils.replaceMessageSpecialTokens, which class-validator does not export. */
function replaceTokens(message: Message, args: ValidationArguments): string | undefined {
  let text: string | undefined;
  if (message instanceof Function) text = message(args);
  else if (typeof message === 'string') text = message;
  const constraints: unknown = args.constraints;
  const value: unknown = args.value;
  if (text && Array.isArray(constraints))
    constraints.forEach((constraint, index) => {
      const token = new RegExp(`\\$constraint${index + 1}`, 'g');
      text = text!.replace(token, constraintToString(constraint));
    });
  // Only a string, boolean or number value stands in for $value (never null or undefined).
  const primitive =
    typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number';
  if (text && primitive) text = text.replace(/\$value/g, String(value));
  if (text) text = text.replace(/\$property/g, args.property);
  if (text) text = text.replace(/\$target/g, String(args.targetName));
  return text;
}

function constraintToString(constraint: unknown): string {
  if (Array.isArray(constraint)) return constraint.join(', ');
  if (typeof constraint === 'symbol') return `${constraint.description}`;
  return `${constraint as string}`;
}
