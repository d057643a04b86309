/**
 * pino's `isoTime` timestamp (`,"time":"2026-11-25T03:43:28.123Z"`), keeping the text of the
 * current second: one Date made a second rather than one a line, since every request writes one.
 */
let second = Number.NaN;
let secondText = '';

export function isoTimeAt(now: number): string {
  const current = Math.floor(now / 1000);
  if (current !== second) {
    second = current;
    // "2026-11-25T03:43:28." — what toISOString gives up to the milliseconds.
    secondText = new Date(current * 1000).toISOString().slice(0, 20);
  }
  const ms = now - current * 1000;
  return `,"time":"${secondText}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
}

export const isoTime = (): string => isoTimeAt(Date.now());
