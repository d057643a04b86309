/** Every spelling of one action name the generated files use. */
export interface ActionNames {
  /** `greeting-card`: folder, file names, path segment. */
  kebab: string;
  /** `GreetingCard`: class names. */
  pascal: string;
  /** `greetingCard`: the declaration's constant (`greetingCardAction`). */
  camel: string;
  /** `Greeting card`: the label a user reads. */
  title: string;
}

/** Words of lower-case letters and digits joined by single hyphens, starting with a letter. */
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const MAX_NAME_LENGTH = 50;

/** Why a name cannot be an action's, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (!KEBAB.test(name)) {
    return `"${name}" is not kebab-case: lower-case letters and digits in words joined by "-", starting with a letter (e.g. greeting or token-price)`;
  }
  if (name.length > MAX_NAME_LENGTH) {
    return `"${name}" is ${name.length} characters long; keep it to ${MAX_NAME_LENGTH}`;
  }
  return undefined;
}

export function actionNames(kebab: string): ActionNames {
  const words = kebab.split('-');
  const capitalized = words.map((word) => word[0].toUpperCase() + word.slice(1));
  return {
    kebab,
    pascal: capitalized.join(''),
    camel: words[0] + capitalized.slice(1).join(''),
    title: capitalized[0] + (words.length > 1 ? ` ${words.slice(1).join(' ')}` : ''),
  };
}

/** `my-team` → `MY_TEAM_MINI_APP`, the constant a mini-app is declared under. */
export function miniAppConstant(id: string): string {
  return `${id.toUpperCase().replace(/-/g, '_')}_MINI_APP`;
}
