import { isPrivateUrl } from './private-address';

describe('isPrivateUrl', () => {
  it.each([
    'http://127.0.0.1:8545',
    'http://127.1:8545',
    'http://localhost:8545',
    'http://node.localhost',
    'http://10.1.2.3/rpc',
    'http://172.16.0.1',
    'http://172.31.255.255',
    'http://192.168.1.20:8545',
    'http://169.254.169.254',
    'http://0.0.0.0:8545',
    'http://[::1]:8545',
    'http://[fd12:3456::1]',
    'http://[fe80::1]',
    'http://[::ffff:127.0.0.1]:8545',
  ])('finds %s private', (url) => {
    expect(isPrivateUrl(url)).toBe(true);
  });

  it.each([
    'https://api.avax-test.network/ext/bc/C/rpc',
    'http://8.8.8.8',
    'http://172.32.0.1',
    'http://[2001:db8::1]',
    'not a url',
  ])('finds %s public (or unreadable)', (url) => {
    expect(isPrivateUrl(url)).toBe(false);
  });
});
