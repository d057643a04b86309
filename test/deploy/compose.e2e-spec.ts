import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadUploadConfig } from '../../src/config/upload.config';

const ROOT = join(__dirname, '..', '..');

interface Service {
  image?: string;
  command?: string[];
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string>;
  env_file?: { path: string; required?: boolean }[];
  volumes?: string[];
  security_opt?: string[];
  cap_drop?: string[];
  read_only?: boolean;
  tmpfs?: string[];
  logging?: { driver?: string; options?: Record<string, string> };
  deploy?: { resources?: { limits?: { cpus?: string; memory?: string } } };
}

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
};
const { app, redis, proxy } = compose.services;
/** nginx.conf without its comments. */
const nginx = readFileSync(join(ROOT, 'deploy', 'nginx.conf'), 'utf8').replace(/#.*$/gm, '');

/** `${VAR:-default}` as compose interpolates it with nothing set: the default. */
const byDefault = (value: string): string => value.replace(/\$\{\w+:-([^}]*)\}/g, '$1');

/** The nginx image's entrypoint: envsubst on templates, for variables its filter lets through. */
function envsubst(template: string, env: Record<string, string>): string {
  const filter = new RegExp(env.NGINX_ENVSUBST_FILTER ?? '');
  return template.replace(/\$\{(\w+)\}/g, (text, name: string) =>
    name in env && filter.test(name) ? env[name] : text,
  );
}

/** Size in bytes of a compose/redis memory figure (512M, 192mb). */
const bytes = (size: string): number => {
  const [, n, unit] = /^(\d+)\s*([kmg]?)b?$/i.exec(size) ?? [];
  return Number(n) * 1024 ** ' kmg'.indexOf((unit || ' ').toLowerCase());
};

describe('docker-compose.yml and deploy/nginx.conf', () => {
  it.each(Object.keys(compose.services))(
    '%s: no-new-privileges, rotated json-file logs, CPU and memory limits',
    (name) => {
      const service = compose.services[name];
      expect(service.security_opt).toContain('no-new-privileges:true');
      expect(service.logging).toEqual({
        driver: 'json-file',
        options: {
          'max-size': expect.stringMatching(/^\d+[kmg]$/),
          'max-file': expect.stringMatching(/^\d+$/),
        },
      });
      expect(service.deploy?.resources?.limits).toEqual({
        cpus: expect.stringMatching(/^[\d.]+$/),
        memory: expect.stringMatching(/^\d+[KMG]$/),
      });
    },
  );

  it('Redis never evicts (intents, webhook jobs): noeviction, maxmemory below its limit', () => {
    const command = redis.command ?? [];
    const at = (flag: string): string => command[command.indexOf(flag) + 1];
    expect(command).toContain('--maxmemory');
    expect(bytes(at('--maxmemory'))).toBeGreaterThan(0);
    expect(bytes(at('--maxmemory'))).toBeLessThan(bytes(redis.deploy!.resources!.limits!.memory!));
    expect(at('--maxmemory-policy')).toBe('noeviction');
  });

  it('the app reads the chain file mounted read-only, settings and RPC_URL_* from .env', () => {
    const chainFile = app.environment?.CHAIN_CONFIG_FILE;
    expect(app.volumes?.map(byDefault)).toContain(
      `./src/evm/chains/chains.default.json:${chainFile}:ro`,
    );
    expect(app.env_file).toEqual([{ path: '.env', required: false }]);
    // Listening where the proxy reaches it, whatever a developer's .env says.
    expect(app.environment).toMatchObject({ HOST: '0.0.0.0', PORT: '3000' });
  });

  it('the app runs read-only without capabilities, its replicas sharing one MinIO bucket', () => {
    expect(app.read_only).toBe(true);
    expect(app.cap_drop).toEqual(['ALL']);
    // Nothing else written by the app: only the read-only chain file is mounted (and the tmpfs).
    expect(app.volumes?.every((volume) => String(volume).endsWith(':ro'))).toBe(true);
    expect(app.environment).toMatchObject({
      NFT_STORAGE: 's3',
      NFT_S3_ENDPOINT_URL: 'http://minio:9000',
      NFT_S3_FORCE_PATH_STYLE: 'true',
    });
    const { minio, 'minio-bucket': bucket } = compose.services;
    // Pinned to a release, never `latest`.
    expect(minio.image).toMatch(/^minio\/minio:RELEASE\.\d{4}-/);
    expect(app.depends_on).toMatchObject({
      'minio-bucket': { condition: 'service_completed_successfully' },
    });
    expect(String(bucket.command)).toContain(`nft/${String(app.environment?.NFT_S3_BUCKET)}`);
  });

  it('the app writes uploads being received to a tmpfs at UPLOAD_SPOOL_DIR, holding them all', () => {
    const spoolDir = app.environment?.UPLOAD_SPOOL_DIR;
    expect(spoolDir).toMatch(/^\//);
    const mounts = (app.tmpfs ?? []).map((entry) => {
      const [path, options = ''] = entry.split(':');
      return { path, options: Object.fromEntries(options.split(',').map((o) => o.split('='))) };
    });
    expect(mounts.map(({ path }) => path)).toEqual([spoolDir]);
    const { options } = mounts[0];
    // Written by the image's `node` user; every upload in flight fits (ENOSPC is a 503).
    expect(options).toMatchObject({ uid: '1000', gid: '1000' });
    const env = Object.fromEntries(
      Object.entries(app.environment ?? {}).map(([key, value]) => [key, byDefault(value)]),
    );
    const { maxInflightBytes } = loadUploadConfig(env, 1);
    expect(bytes(String(options.size))).toBeGreaterThanOrEqual(maxInflightBytes);
    // In memory: within the container's limit, with room left for the service itself.
    expect(bytes(String(options.size))).toBeLessThan(
      bytes(app.deploy!.resources!.limits!.memory!) / 2,
    );
  });

  it('nginx forwards X-Request-Id, generated when absent or not an id the app accepts', () => {
    const map = /map \$http_x_request_id \$(\w+) \{([\s\S]*?)\n\}/.exec(nginx);
    expect(map).not.toBeNull();
    const [, variable, body] = map!;
    // The app's own pattern (src/app.setup.ts): what it accepts passes, anything else is replaced.
    expect(body).toMatch(/"~\^\[\\w\.:-\]\{1,128\}\$"\s+\$http_x_request_id;/);
    expect(body).toMatch(/default\s+\$request_id;/);
    expect(nginx).toMatch(new RegExp(`proxy_set_header X-Request-Id \\$${variable};`));
  });

  it('nginx logs the request id with the upstream response time, in its own log format', () => {
    const format = /log_format (\w+)[^;]*;/.exec(nginx);
    expect(format).not.toBeNull();
    const variable = /map \$http_x_request_id \$(\w+)/.exec(nginx)![1];
    expect(format![0]).toContain(`$${variable}`);
    expect(format![0]).toContain('$upstream_response_time');
    expect(nginx).toMatch(new RegExp(`access_log \\S+ ${format![1]};`));
  });

  it("nginx sends the configured PUBLIC_HOST as Host and X-Forwarded-Host, never the client's", () => {
    expect(proxy.volumes).toContain(
      './deploy/nginx.conf:/etc/nginx/templates/default.conf.template:ro',
    );
    const env = Object.fromEntries(
      Object.entries(proxy.environment ?? {}).map(([key, value]) => [key, byDefault(value)]),
    );
    const rendered = envsubst(nginx, env);
    expect(rendered).toContain(`proxy_set_header Host ${env.PUBLIC_HOST};`);
    expect(rendered).toContain(`proxy_set_header X-Forwarded-Host ${env.PUBLIC_HOST};`);
    expect(rendered).not.toMatch(/\$\{/);
    expect(nginx).not.toMatch(/\$http_host|\$host\b/);
  });
});
