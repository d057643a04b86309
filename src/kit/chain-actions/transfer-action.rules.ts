import { amountProblem, checksumProblem } from './chain-values';

/*
 * The platform's TransferActionValidator (sherry-sdk src/validators/transferActionValidator.ts)
 * on a published `transfer` action, every problem reported, plus what the kit adds: checksummed
 * addresses, amounts the client converts to wei exactly, distinct options.
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

function recipientProblems(recipient: unknown, at: string): string[] {
  const where = `${at}.recipient`;
  if (!isObject(recipient)) return [`${where} is not an object`];
  const { inputType } = recipient;
  // The platform's validator takes these two only, whatever its type says.
  if (inputType !== 'select' && inputType !== 'input') {
    return [`${where}.inputType ${JSON.stringify(inputType)} is not "select" or "input"`];
  }
  const problems =
    inputType === 'select' ? optionProblems(recipient.options, where, checksumProblem) : [];
  if (recipient.defaultValue !== undefined) {
    const issue = checksumProblem(recipient.defaultValue);
    if (issue) problems.push(`${where}.defaultValue: ${issue}`);
  }
  return problems;
}

function amountChoiceProblems(choice: unknown, at: string): string[] {
  const where = `${at}.amountConfig`;
  if (!isObject(choice)) return [`${where} is not an object`];
  const { inputType } = choice;
  if (inputType !== undefined && !['select', 'radio', 'input'].includes(inputType as string)) {
    return [`${where}.inputType ${JSON.stringify(inputType)} is not "select", "radio" or "input"`];
  }
  const problems =
    inputType === 'select' || inputType === 'radio'
      ? optionProblems(choice.options, where, (value) => amountProblem(value))
      : [];
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
