/**
 * One spelling per meaning for text that goes into a cache key: Unicode NFKC (full-width
 * "ＰＡＲＩＳ" becomes "PARIS", ligatures and compatibility forms fold), lower case, trimmed,
 * inner whitespace collapsed to one space. An action caches under this form and sends the
 * upstream exactly this form, so whoever asks first cannot decide, by their spelling, what
 * everyone else is answered.
 */
export function normalizeKeyText(text: string): string {
  return text.normalize('NFKC').toLowerCase().normalize('NFKC').trim().replace(/\s+/g, ' ');
}
