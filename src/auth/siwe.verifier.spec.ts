import { loadConfig } from '../config/app.config';
import type { ChainRegistry } from '../evm/chains/chain-registry';
import { loadAuthConfig } from './auth.config';
import { MemoryAuthStore } from './auth.store';
import { SiweVerifier } from './siwe.verifier';

const request = { protocol: 'http', host: 'localhost:3000' };
const verifier = (env: Record<string, string>): SiweVerifier =>
  new SiweVerifier(
    loadAuthConfig(env),
    loadConfig({ NODE_ENV: 'test', ...env }),
    new MemoryAuthStore(100),
    {} as ChainRegistry,
  );

describe('SiweVerifier.messageOrigin: the domain and URI of a message the service writes', () => {
  it('names the first host verify accepts, with the published base URL on it', () => {
    expect(verifier({}).messageOrigin(request)).toEqual({
      domain: 'localhost:3000',
      uri: 'http://localhost:3000',
    });
    expect(verifier({ PUBLIC_BASE_URL: 'https://actions.example' }).messageOrigin(request)).toEqual(
      { domain: 'actions.example', uri: 'https://actions.example' },
    );
    expect(
      verifier({
        AUTH_DOMAINS: 'app.example, actions.example',
        PUBLIC_BASE_URL: 'https://actions.example',
      }).messageOrigin(request),
    ).toEqual({ domain: 'app.example', uri: 'https://app.example' });
  });
});
