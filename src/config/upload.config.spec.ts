import { tmpdir } from 'node:os';
import { loadUploadConfig } from './upload.config';

describe('upload configuration', () => {
  it('defaults to 10 MiB and 10 files per request, fields capped by the JSON body limit', () => {
    expect(loadUploadConfig({}, 2048)).toEqual({
      maxBytes: 10_485_760,
      maxFiles: 10,
      maxFields: 200,
      maxFieldBytes: 2048,
      maxInflightBytes: 67_108_864,
      maxPerClient: 4,
      spoolThresholdBytes: 65_536,
      spoolDir: tmpdir(),
    });
    expect(loadUploadConfig({ UPLOAD_MAX_BYTES: '4096', UPLOAD_MAX_FILES: '1' }, 1)).toMatchObject({
      maxBytes: 4096,
      maxFiles: 1,
    });
  });

  it.each([
    ['UPLOAD_MAX_BYTES', 'lots'],
    ['UPLOAD_MAX_BYTES', '100'],
    ['UPLOAD_MAX_FILES', '0'],
    ['UPLOAD_MAX_FILES', '1.5'],
    ['UPLOAD_MAX_INFLIGHT_BYTES', 'many'],
    ['UPLOAD_MAX_PER_CLIENT', '0'],
    ['UPLOAD_SPOOL_DIR', 'spool'],
    ['UPLOAD_SPOOL_DIR', './tmp/uploads'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => loadUploadConfig({ [name]: value }, 1)).toThrow(
      new RegExp(`^Invalid upload configuration:\\n  - ${name}=`),
    );
  });

  it('writes large files under UPLOAD_SPOOL_DIR, an absolute path (normalised)', () => {
    expect(loadUploadConfig({ UPLOAD_SPOOL_DIR: '/var/spool/uploads/' }, 1).spoolDir).toBe(
      '/var/spool/uploads',
    );
    expect(() => loadUploadConfig({ UPLOAD_SPOOL_DIR: 'uploads' }, 1)).toThrow(
      /UPLOAD_SPOOL_DIR="uploads": must be an absolute path/,
    );
  });

  it('refuses an in-flight bound below the largest upload, naming both', () => {
    expect(() =>
      loadUploadConfig({ UPLOAD_MAX_BYTES: '8192', UPLOAD_MAX_INFLIGHT_BYTES: '4096' }, 1),
    ).toThrow(/UPLOAD_MAX_INFLIGHT_BYTES=4096: must be at least UPLOAD_MAX_BYTES \(8192\)/);
  });
});
