import { redactUrls } from './url-redaction';

describe('redactUrls', () => {
  it('leaves text without a URL as it is', () => {
    const text = 'Weather geocoding call failed for "paris": Upstream answered HTTP 500';
    expect(redactUrls(text)).toBe(text);
  });

  it('keeps scheme and host, hides credentials, path and query', () => {
    expect(redactUrls('node https://user:pa55@rpc.example.com/v3/KEY?apikey=Q failed')).toBe(
      'node https://<credentials>@rpc.example.com/<path>?<query> failed',
    );
  });

  it('hides every URL of a text, each with what its query holds after a comma', () => {
    const text = 'tried http://a.example/k1 then wss://b.example:8546/?ids=x,y&key=K2, giving up';
    const redacted = redactUrls(text);
    expect(redacted).toBe(
      'tried http://a.example/<path> then wss://b.example:8546?<query> giving up',
    );
    expect(redacted).not.toMatch(/k1|K2|ids/);
  });

  it('keeps a JSON line valid: the URL ends at a quote or the backslash of an escape', () => {
    const line = JSON.stringify({
      msg: 'failed: "http://h.example/SECRET"\nnext',
      err: { stack: 'Error: fetch https://n.example/KEY?x=1\n    at f (file.js:1:2)' },
    });
    const redacted = redactUrls(line);
    expect(JSON.parse(redacted)).toEqual({
      msg: 'failed: "http://h.example/<path>"\nnext',
      err: { stack: 'Error: fetch https://n.example/<path>?<query>\n    at f (file.js:1:2)' },
    });
  });

  it("keeps the metrics listener's own URL whole, and only that one", () => {
    expect(redactUrls('Metrics on http://0.0.0.0:9464/metrics')).toBe(
      'Metrics on http://0.0.0.0:9464/metrics',
    );
    expect(redactUrls('http://u:p@h.example/metrics http://h.example/metrics?k=1')).toBe(
      'http://<credentials>@h.example/<path> http://h.example/<path>?<query>',
    );
    expect(redactUrls('http://h.example/KEY/metrics')).toBe('http://h.example/<path>');
  });

  it('leaves a `://` without a scheme before it alone', () => {
    expect(redactUrls('separator :// and 1:// here')).toBe('separator :// and 1:// here');
  });
});
