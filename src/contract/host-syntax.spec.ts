import { hostAllowed, hostParser, parseHost, parseHostPattern } from './host-syntax';

describe('hostParser', () => {
  it('answers as parseHost does, for values seen again and past what it remembers', () => {
    const parse = hostParser();
    const values = [
      ...Array.from({ length: 300 }, (_, i) => `host-${i}.example.com:${1000 + i}`),
      'evil.com/phish#',
      '[::1]',
      '127.1',
    ];
    for (const round of [1, 2]) {
      for (const value of values) expect([round, parse(value)]).toEqual([round, parseHost(value)]);
    }
  });
});

describe('parseHost', () => {
  it.each([
    ['actions.example.com', { hostname: 'actions.example.com' }],
    ['Actions.Example.COM:8443', { hostname: 'actions.example.com', port: 8443 }],
    ['localhost', { hostname: 'localhost' }],
    ['my_app:3000', { hostname: 'my_app', port: 3000 }],
    ['example.com.', { hostname: 'example.com' }],
    ['10.0.0.5', { hostname: '10.0.0.5' }],
    ['127.0.0.1:65535', { hostname: '127.0.0.1', port: 65535 }],
    ['[::1]', { hostname: '[::1]' }],
    ['[2001:db8::7]:3000', { hostname: '[2001:db8::7]', port: 3000 }],
  ])('reads %s', (value, parsed) => {
    expect(parseHost(value)).toEqual(parsed);
  });

  it.each([
    ['a path and a fragment', 'evil.com/phish#'],
    ['userinfo', 'user:pass@evil.com'],
    ['a query', 'evil.com?x=1'],
    ['a fragment', 'evil.com#x'],
    ['a backslash', 'evil.com\\x'],
    ['two ports', 'evil.com:80:81'],
    ['a port over 65535', 'evil.com:65536'],
    ['port 0', 'evil.com:0'],
    ['a port with a leading zero', 'evil.com:080'],
    ['an empty port', 'evil.com:'],
    ['a space', 'evil .com'],
    ['quotes', 'evil.com"x'],
    ['markup', '<script>'],
    ['a non-ASCII name', 'évil.com'],
    ['percent-encoding', '%65vil.com'],
    ['an empty label', 'evil..com'],
    ['a label starting with a hyphen', '-evil.com'],
    ['a label of 64 characters', `${'a'.repeat(64)}.com`],
    ['a name over 253 characters', `${'a.'.repeat(127)}com`],
    ['a short-form IPv4 address', '127.1'],
    ['a decimal IPv4 address', '2130706433'],
    ['an out-of-range IPv4 address', '256.0.0.1'],
    ['IPv6 without brackets', '::1'],
    ['an unclosed bracket', '[::1'],
    ['an IPv6 zone', '[fe80::1%25eth0]'],
    ['brackets around a name', '[evil.com]'],
    ['nothing', ''],
  ])('refuses %s', (_, value) => {
    expect(parseHost(value)).toBeUndefined();
  });
});

describe('ALLOWED_HOSTS patterns', () => {
  const patterns = ['actions.example.com', '*.example.org', 'localhost:3000', '[::1]'].map(
    (value) => parseHostPattern(value)!,
  );
  const allowed = (host: string): boolean => hostAllowed(parseHost(host)!, patterns);

  it.each([
    ['actions.example.com'],
    ['ACTIONS.example.com:8443'],
    ['a.example.org'],
    ['a.b.example.org:1'],
    ['localhost:3000'],
    ['[::1]:80'],
  ])('allows %s', (host) => expect(allowed(host)).toBe(true));

  it.each([
    ['example.com'],
    ['evil.com'],
    ['example.org'],
    ['evilexample.org'],
    ['localhost'],
    ['localhost:3001'],
    ['actions.example.com.evil.com'],
  ])('refuses %s', (host) => expect(allowed(host)).toBe(false));

  it.each([
    ['*'],
    ['*.'],
    ['*.10.0.0.1'],
    ['*.[::1]'],
    ['a.*.com'],
    ['evil.com/x'],
    ['http://evil.com'],
  ])('refuses the pattern %s', (value) => expect(parseHostPattern(value)).toBeUndefined());
});
