import { createHash } from 'node:crypto';
import { docsPolicy } from './docs-policy';

const sha = (text: string): string =>
  `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('docsPolicy', () => {
  it('allows exactly the inline styles of the page, by hash', () => {
    const html =
      '<html><style>\n  body { margin: 0 }\n</style><svg style="width:0"></svg><style>x{}</style></html>';
    const policy = docsPolicy(html);
    const styleSrc = policy.split('; ').find((d) => d.startsWith('style-src '));
    expect(styleSrc).toBe(
      `style-src 'self' 'unsafe-hashes' ${sha('\n  body { margin: 0 }\n')} ${sha('x{}')} ${sha('width:0')}`,
    );
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toContain('unsafe-inline');
  });

  it('allows no inline style where a page has none, and names extra sources for requests', () => {
    const policy = docsPolicy('', ['https://actions.example.com']);
    expect(policy).toContain("style-src 'self';");
    expect(policy).toContain("connect-src 'self' https://actions.example.com;");
  });
});
