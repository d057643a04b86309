import { redactUrl } from '../../config/redact-url';

/** A scheme is 1 to 32 of these characters before `://`; looked for backwards from the `://`. */
const SCHEME_CHAR = /[a-z0-9+.-]/i;
const SCHEME_MAX = 32;
/**
 * Where a URL written into text ends: whitespace, quotes, angle brackets, or the backslash of a
 * JSON escape (the text is a whole JSON line: the escape must stay intact). Anything else may be
 * part of its query (`ids=a,b&key=…`) or host (`[::1]`), so it is hidden with the URL.
 */
const URL_END = /[\s"'<>`\\]/;

/**
 * URLs kept whole: the service's own Prometheus path, which the metrics boot line names
 * (`Metrics on http://0.0.0.0:9464/metrics`) and which holds no secret; with no credentials,
 * query or other path, nothing else can hide in such a URL.
 */
const KEPT = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@]+\/metrics$/i;

function schemeStart(text: string, colon: number): number {
  let start = colon;
  while (start > 0 && colon - start < SCHEME_MAX && SCHEME_CHAR.test(text[start - 1])) start -= 1;
  // A scheme starts with a letter; "1http://" keeps only what a URL parser would take.
  while (start < colon && !/[a-z]/i.test(text[start])) start += 1;
  return start;
}

function urlEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && !URL_END.test(text[end])) end += 1;
  return end;
}

/**
 * Text (a log line) with every URL in it reduced to scheme and host (credentials, path and query replaced by
 * markers, as in boot errors): RPC URLs and API URLs may carry keys in any of those parts. Runs in
 * one pass over the text (a regular expression with a leading `[\w.-]*` rescans `a.a.a…` from
 * every position); text without `://` is returned as it is.
 */
export function redactUrls(text: string): string {
  let found = text.indexOf('://');
  if (found < 0) return text;
  let out = '';
  let copied = 0;
  while (found >= 0) {
    const start = schemeStart(text, found);
    const end = urlEnd(text, found + 3);
    if (start < found && end > found + 3) {
      const url = text.slice(start, end);
      out += text.slice(copied, start) + (KEPT.test(url) ? url : redactUrl(url));
      copied = end;
    }
    found = text.indexOf('://', Math.max(end, found + 3));
  }
  return out + text.slice(copied);
}
