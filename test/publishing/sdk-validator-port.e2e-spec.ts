import { checkPlatformMetadata } from '../../src/publishing/platform-metadata';
import { sdkRefusal } from '../fixtures/sherry-sdk/create-metadata';
import { SDK_SOURCE } from '../fixtures/sherry-sdk/sdk-source';
import { sdkDocument, SDK_VERDICTS } from '../fixtures/sherry-sdk/sdk-verdicts.fixture';

/**
 * The port of the SDK's validators (test/fixtures/sherry-sdk) gives the SDK's verdicts, with its
 * messages; and where the SDK refuses a document, so does the kit's checker (the boot, /debug and
 * `npm run check` run it), which may refuse more on purpose but never less.
 */
describe(`The port of ${SDK_SOURCE.repository} ${SDK_SOURCE.version}'s createMetadata`, () => {
  it.each(SDK_VERDICTS)('%s', (_, actions, verdict) => {
    const document = sdkDocument(...actions);
    expect(sdkRefusal(document)).toBe(verdict);
    if (verdict !== undefined) expect(checkPlatformMetadata(document)).not.toEqual([]);
  });

  it('refuses a relative path without baseUrl, and a document that is no object', () => {
    const document = sdkDocument({
      type: 'dynamic',
      label: 'Note',
      path: '/api/note',
      chains: { source: 43113 },
    });
    expect(sdkRefusal(document)).toBeUndefined();
    delete document.baseUrl;
    expect(sdkRefusal(document)).toBe(
      "Dynamic action 'Note' has a relative path '/api/note' but no baseUrl is provided in metadata",
    );
    expect(sdkRefusal([])).toBe('Metadata must be a valid object');
  });
});
