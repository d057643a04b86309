import { createHash } from 'node:crypto';

const hash = (text: string): string =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The inline `<style>` blocks and `style="…"` attributes of a page, as the browser hashes them. */
function inlineStyles(html: string): { blocks: string[]; attributes: string[] } {
  const blocks = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1]);
  const attributes = [...html.matchAll(/\sstyle="([^"]*)"/gi)].map((m) => m[1]);
  return { blocks, attributes };
}

/**
 * The Content-Security-Policy of the /docs pages: scripts and styles from the service only, the
 * page's own inline styles allowed by hash (Swagger UI's HTML carries two `<style>` blocks and one
 * `style` attribute; no inline script), requests ("Try it out") to the service itself.
 */
export function docsPolicy(html: string, connectSources: readonly string[] = []): string {
  const { blocks, attributes } = inlineStyles(html);
  const styleHashes = [...new Set([...blocks, ...attributes].map(hash))];
  const styles = ["'self'", ...(attributes.length > 0 ? ["'unsafe-hashes'"] : []), ...styleHashes];
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${styles.join(' ')}`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${["'self'", ...connectSources].join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
