/** Longest piece of outside text a log line carries; the rest is counted, not written. */
export const LOG_TEXT_MAX = 200;

/**
 * Characters JSON.stringify leaves alone but a terminal or log viewer still acts on: DEL and the
 * C1 controls (U+0085 is a line break to some viewers), line and paragraph separators, and the
 * bidirectional overrides that make text read differently from how it is stored.
 */
const STILL_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const unicodeEscape = (char: string): string =>
  `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Text from outside (a parameter, a URL, an error message quoting either) made safe for one log
 * line: control characters escaped as JSON does (`\n`, `\u001b`…), backslashes and quotes too so
 * an escape cannot be faked, and anything past `max` characters replaced by a count.
 */
export function logText(value: unknown, max = LOG_TEXT_MAX): string {
  const text = typeof value === 'string' ? value : String(value);
  const kept = text.length > max ? text.slice(0, max) : text;
  const escaped = JSON.stringify(kept).slice(1, -1).replace(STILL_UNSAFE, unicodeEscape);
  return text.length > max ? `${escaped}…(+${text.length - max} chars)` : escaped;
}

const FIRST_FRAME = /\n\s+at /;

/**
 * An error's stack for a log, its message escaped like `logText` (a stack starts with the message,
 * which may quote user input); the frames, written by the runtime, are kept as they are.
 */
export function logStack(thrown: unknown): string | undefined {
  if (!(thrown instanceof Error) || typeof thrown.stack !== 'string') return undefined;
  const frames = FIRST_FRAME.exec(thrown.stack);
  const head = `${thrown.name}: ${logText(thrown.message)}`;
  return frames ? head + thrown.stack.slice(frames.index) : head;
}
