import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IService } from 'kubernetes-models/v1/Service';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/app.config';
import { loadUploadConfig } from '../../src/config/upload.config';
import { type KubeObject, parseEnvFile, renderKustomization } from './kustomize';

const ROOT = join(__dirname, '..', '..');
const read = (...path: string[]): string => readFileSync(join(ROOT, ...path), 'utf8');

/** semver, as npm resolves ranges (a dependency of npm and of the Nest packages alike). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const semver = require('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

/** nginx's size syntax: bytes, or k/m/g. */
const nginxBytes = (size: string): number => {
  const [, n, unit] = /^(\d+)([kmg]?)$/i.exec(size) ?? [];
  return Number(n) * 1024 ** ' kmg'.indexOf((unit || ' ').toLowerCase());
};

/** Redis's size syntax (redis.conf): 1m is 10^6 bytes, 1mb 2^20; NaN when it is not one. */
const redisBytes = (size: string): number => {
  const [, n, unit = '', binary] = /^(\d+)([kmg]?)(b?)$/i.exec(size) ?? [];
  return Number(n) * (binary ? 1024 : 1000) ** ' kmg'.indexOf(unit.toLowerCase() || ' ');
};

/** A Kubernetes memory quantity: Ki, Mi, Gi binary, k, M, G decimal; NaN when it is not one. */
const kubeBytes = (quantity: string): number => {
  const [, n, unit = '', binary] = /^(\d+)(?:([KMG])(i?))?$/i.exec(quantity) ?? [];
  return Number(n) * (binary ? 1024 : 1000) ** ' KMG'.indexOf(unit.toUpperCase() || ' ');
};

describe('deploy/nginx.conf agrees with the app on body sizes, and answers JSON', () => {
  const nginx = read('deploy', 'nginx.conf').replace(/#.*$/gm, '');
  const compose = parse(read('docker-compose.yml')) as {
    services: { app: { environment?: Record<string, string> } };
  };
  const env = Object.fromEntries(
    Object.entries(compose.services.app.environment ?? {}).map(([key, value]) => [
      key,
      // `${VAR:-default}` as compose fills it with nothing set.
      String(value).replace(/\$\{\w+:-([^}]*)\}/g, '$1'),
    ]),
  );

  it('client_max_body_size lets through every request the app reads, and little more', () => {
    const { bodyLimitBytes } = loadConfig(env);
    const { maxBytes } = loadUploadConfig(env, bodyLimitBytes);
    const largest = Math.max(maxBytes, bodyLimitBytes);
    const [, size] = /client_max_body_size\s+(\S+);/.exec(nginx) ?? [];
    expect(nginxBytes(size)).toBeGreaterThan(largest);
    // The app's own 413 (in the envelope, naming the limit) for anything it would refuse.
    expect(nginxBytes(size)).toBeLessThanOrEqual(largest + 1024 * 1024);
  });

  it.each([[413], [503]])('nginx answers its own %i in the data envelope, as JSON', (status) => {
    const page = new RegExp(`error_page[^;]*\\b${status}\\b[^;]*@(\\w+);`).exec(nginx)?.[1];
    expect(page).toBeDefined();
    const location = new RegExp(`location @${page} \\{([\\s\\S]*?)\\n  \\}`).exec(nginx)?.[1];
    expect(location).toMatch(/default_type application\/json;/);
    const [, code, body] = /return (\d+) '([^']*)';/.exec(location ?? '') ?? [];
    expect(Number(code)).toBe(status);
    expect(JSON.parse(body)).toMatchObject({ success: false, statusCode: status });
  });
});

describe('the image and Node versions', () => {
  it('every stage of the Dockerfile starts from an image pinned by digest', () => {
    const dockerfile = read('Dockerfile').replace(/\\\n/g, ' ');
    const args = Object.fromEntries(
      [...dockerfile.matchAll(/^ARG\s+(\w+)=(\S+)/gm)].map(([, name, value]) => [name, value]),
    );
    const froms = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map(([, image]) =>
      image.replace(/\$\{(\w+)\}/g, (_, name: string) => args[name] ?? ''),
    );
    expect(froms.length).toBeGreaterThan(0);
    for (const image of froms) expect(image).toMatch(/^node:24-slim@sha256:[0-9a-f]{64}$/);
  });

  it('engines names a Node every production dependency supports', () => {
    const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { dev?: boolean; engines?: { node?: string } }>;
    };
    const floor = semver.minVersion(pkg.engines.node)!.version;
    expect(semver.satisfies(floor, '>=22')).toBe(true);
    const refusing = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && !entry.dev && entry.engines?.node)
      .filter(([, entry]) => !semver.satisfies(floor, entry.engines!.node!))
      .map(([path, entry]) => `${path}: ${entry.engines!.node}`);
    expect(refusing).toEqual([]);
  });

  it("CI's second run uses a Node of the supported line, not whatever the machine has", () => {
    const ci = read('.ci', 'run');
    expect(ci).not.toMatch(/^node node_modules\/jest/m);
    const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
    const major = semver.minVersion(pkg.engines.node)!.version.split('.')[0];
    expect(ci).toContain(`--package=node@${major}`);
  });
});

describe('deploy/kubernetes: shared Redis, network policies, monitoring', () => {
  const base = join(ROOT, 'deploy', 'kubernetes');
  const resources = renderKustomization(base).map(({ object }) => object);
  const of = <T>(kind: string, name: string): T =>
    resources.find((o) => o.kind === kind && o.metadata?.name === name) as unknown as T;
  const app = of<IDeployment>('Deployment', 'dynamic-actions');
  const appLabels = app.spec!.template.metadata!.labels!;
  const matches = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
    Object.entries(selector ?? { none: '' }).every(([key, value]) => labels[key] === value);

  it('ships a Redis, on a pinned image, that the app reaches through REDIS_URL', () => {
    const urls = parseEnvFile(join(base, 'urls.env'), []);
    const { hostname, port } = new URL(urls.REDIS_URL);
    const service = of<IService>('Service', hostname);
    expect(service).toBeDefined();
    const exposed = service.spec!.ports!.find((p) => p.port === Number(port || 6379));
    const pod = resources
      .filter((o): o is KubeObject => o.kind === 'Deployment')
      .map((o) => (o as unknown as IDeployment).spec!.template)
      .find((t) => matches(service.spec!.selector, t.metadata!.labels!));
    const [redis] = pod!.spec!.containers;
    expect(redis.ports!.map((p) => p.name)).toContain(exposed!.targetPort);
    // A release, never a floating tag like `7` or `latest`.
    expect(redis.image).toMatch(/:\d+\.\d+\.\d+[\w.-]*$|@sha256:[0-9a-f]{64}$/);
    // Intents and pending webhook jobs live there: never evicted, writes refused past the cap.
    const args = redis.args ?? [];
    const at = (flag: string): string => args[args.indexOf(flag) + 1];
    expect(at('--maxmemory-policy')).toBe('noeviction');
    expect(args).toContain('--maxmemory');
    const cap = redisBytes(at('--maxmemory'));
    expect(cap).toBeGreaterThan(0);
    // Below the container's limit, so Redis refuses writes before the kernel kills it.
    expect(cap).toBeLessThan(kubeBytes(String(redis.resources!.limits!.memory)));
  });

  it('NetworkPolicies: the app takes its two ports, Redis only the app', () => {
    const policies = resources.filter(
      (o) => o.kind === 'NetworkPolicy',
    ) as unknown as INetworkPolicy[];
    const forApp = policies.find((p) => matches(p.spec!.podSelector.matchLabels, appLabels));
    expect(forApp?.spec!.ingress!.flatMap((rule) => rule.ports!.map((p) => p.port))).toEqual([
      'http',
      'metrics',
    ]);
    const forRedis = policies.find((p) => p !== forApp);
    const from = forRedis!.spec!.ingress!.flatMap((rule) => rule.from ?? []);
    expect(from).toHaveLength(1);
    expect(matches(from[0].podSelector!.matchLabels, appLabels)).toBe(true);
  });

  it('a PodMonitor (Prometheus Operator) scrapes the metrics port of the app pods', () => {
    const monitor = parse(read('deploy', 'prometheus-operator', 'pod-monitor.yaml')) as {
      apiVersion: string;
      kind: string;
      spec: {
        selector: { matchLabels: Record<string, string> };
        podMetricsEndpoints: { port: string; path: string }[];
      };
    };
    expect([monitor.apiVersion, monitor.kind]).toEqual(['monitoring.coreos.com/v1', 'PodMonitor']);
    expect(matches(monitor.spec.selector.matchLabels, appLabels)).toBe(true);
    const ports = app.spec!.template.spec!.containers[0].ports!.map((p) => p.name);
    for (const endpoint of monitor.spec.podMetricsEndpoints) {
      expect(ports).toContain(endpoint.port);
      expect(endpoint.path).toBe('/metrics');
    }
  });
});
