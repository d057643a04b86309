import { fdLimitMessage, isFdExhaustion, openFileLimit } from './fd-limit';

const LIMITS = [
  'Limit                     Soft Limit           Hard Limit           Units     ',
  'Max processes             63704                63704                processes ',
  'Max open files            60                   524288               files     ',
].join('\n');

const emfile = Object.assign(new Error('listen EMFILE: too many open files 0.0.0.0:3000'), {
  code: 'EMFILE',
});

describe('fd limit', () => {
  it('reads the soft limit on open files from /proc/self/limits', () => {
    expect(openFileLimit(() => LIMITS)).toBe('60');
    expect(
      openFileLimit(() => {
        throw new Error('ENOENT');
      }),
    ).toBeUndefined();
  });

  it("reads this process's own limit on Linux", () => {
    if (process.platform === 'linux') expect(openFileLimit()).toMatch(/^(\d+|unlimited)$/);
  });

  it('names the limit for EMFILE and ENFILE, and nothing for other errors', () => {
    expect(isFdExhaustion(emfile)).toBe(true);
    expect(fdLimitMessage(emfile, '60')).toBe(
      'listen EMFILE: too many open files 0.0.0.0:3000: out of file descriptors, the open-file ' +
        'limit (ulimit -n is 60) is reached: raise it, or lower ACCEPT_SOCKETS (each listening socket takes one)',
    );
    const enfile = Object.assign(new Error('listen ENFILE'), { code: 'ENFILE' });
    expect(fdLimitMessage(enfile, '60')).toMatch(/file table is full.*ulimit -n is 60/);
    const inUse = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
    expect(fdLimitMessage(inUse, '60')).toBeUndefined();
    expect(fdLimitMessage('EMFILE')).toBeUndefined();
  });
});
