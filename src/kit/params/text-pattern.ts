import { RE2JS } from 're2js';

/** Longest text a declared pattern is run on; longer text fails the pattern without being read. */
export const PATTERN_INPUT_MAX = 10_000;

/**
 * Declared `pattern`s come from teams and run on user input, so they run on RE2 (re2js), whose
 * time is linear in the input whatever the pattern: `^(a+)+$` cannot be made to backtrack. RE2
 * has no lookaround or backreferences; a pattern using them is refused at boot.
 */
export function compilePattern(pattern: string): (text: string) => boolean {
  const compiled = RE2JS.compile(pattern);
  return (text) => text.length <= PATTERN_INPUT_MAX && compiled.test(text);
}

/** Why a declared pattern cannot be used, or undefined when it can. */
export function patternProblem(pattern: string): string | undefined {
  try {
    compilePattern(pattern);
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `has an invalid pattern (${reason}); patterns run on RE2: no lookaround or backreferences`;
  }
}
