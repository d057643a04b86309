import { amountProblem, checksumProblem } from './chain-values';

/*
 * The platform's TransferActionValidator (sherry-sdk 2.27.24-beta.1,
 * src/validators/transferActionValidator.ts) on a published `transfer` action, every problem
 * reported, plus what the kit adds: checksummed addresses, amounts the client converts to wei
 * exactly, labelled and distinct options, a radio of two or more. Field names are the SDK's:
 * `recipient.type` and `amountConfig.type` since its 2.20.11 (`inputType` before).
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Options of a choice: a non-empty list of labelled values, each `valueProblem` accepts, distinct. */
function optionProblems(
  options: unknown,
  where: string,
  valueProblem: (value: unknown) => string | undefined,
): string[] {
  if (!Array.isArray(options) || options.length === 0) return [`${where}.options is empty`];
  const problems: string[] = [];
  const seen = new Set<string>();
  (options as unknown[]).forEach((option, index) => {
    const entry = isObject(option) ? option : {};
    if (typeof entry.label !== 'string' || entry.label === '') {
      problems.push(`${where}.options[${index}] has no label`);
    }
    const issue = valueProblem(entry.value);
    if (issue) problems.push(`${where}.options[${index}].value: ${issue}`);
    const text = JSON.stringify(entry.value);
    if (seen.has(text)) problems.push(`${where} has the option value ${text} twice`);
    seen.add(text);
  });
  return problems;
}

/**
 * `inputType` is the SDK's name before 2.20.11: its validator now reads `type` only, so a recipient
 * written so refuses the whole document ("Invalid recipient input type: undefined") and an amount
 * written so silently loses its select or radio.
 */
function oldNameProblem(choice: Json, where: string): string | undefined {
  return 'inputType' in choice
    ? `${where}.inputType is the SDK's name before 2.20.11: write type (${JSON.stringify(choice.inputType)})`
    : undefined;
}

function recipientProblems(recipient: unknown, at: string): string[] {
  const where = `${at}.recipient`;
  if (!isObject(recipient)) return [`${where} is not an object`];
  const renamed = oldNameProblem(recipient, where);
  const { type } = recipient;
  // The platform's validator takes these two only (its interface says select or radio), and
  // refuses the recipient without one.
  if (type !== 'select' && type !== 'input') {
    const problem = `${where}.type ${JSON.stringify(type)} is not "select" or "input"`;
    return renamed ? [renamed, problem] : [problem];
  }
  const problems = renamed ? [renamed] : [];
  if (type === 'select')
    problems.push(...optionProblems(recipient.options, where, checksumProblem));
  if (recipient.defaultValue !== undefined) {
    const issue = checksumProblem(recipient.defaultValue);
    if (issue) problems.push(`${where}.defaultValue: ${issue}`);
  }
  return problems;
}

function amountChoiceProblems(choice: unknown, at: string): string[] {
  const where = `${at}.amountConfig`;
  if (!isObject(choice)) return [`${where} is not an object`];
  const renamed = oldNameProblem(choice, where);
  const problems = renamed ? [renamed] : [];
  const { type } = choice;
  if (type !== undefined && !['select', 'radio', 'input'].includes(type as string)) {
    return [
      ...problems,
      `${where}.type ${JSON.stringify(type)} is not "select", "radio" or "input"`,
    ];
  }
  if (type === 'select' || type === 'radio') {
    problems.push(...optionProblems(choice.options, where, (value) => amountProblem(value)));
    const { options } = choice;
    if (type === 'radio' && Array.isArray(options) && options.length === 1) {
      problems.push(`${where} is a radio with one option (the kit asks for at least 2)`);
    }
  }
  if (choice.defaultValue !== undefined) {
    const issue = amountProblem(choice.defaultValue);
    if (issue) problems.push(`${where}.defaultValue: ${issue}`);
  }
  return problems;
}

/** Every problem of a `transfer` action's own fields; `at` names it in each. */
export function transferActionProblems(action: Json, at: string): string[] {
  const problems: string[] = [];
  if (action.to === undefined && action.recipient === undefined) {
    problems.push(`${at} has neither "to" nor "recipient": the platform needs one`);
  }
  if (action.to !== undefined) {
    const issue = checksumProblem(action.to);
    if (issue) problems.push(`${at}.to: ${issue}`);
  }
  if (action.recipient !== undefined) problems.push(...recipientProblems(action.recipient, at));
  if (action.amount !== undefined) {
    const issue = amountProblem(action.amount);
    if (issue) problems.push(`${at}.amount: ${issue}`);
  }
  if (action.amountConfig !== undefined) {
    problems.push(...amountChoiceProblems(action.amountConfig, at));
  }
  return problems;
}
