import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IService } from 'kubernetes-models/v1/Service';
import { tmpdir } from 'node:os';
import { loadUploadConfig } from '../../src/config/upload.config';
import { createTestApp } from '../support/app.factory';
import { containerEnv, find, quantityBytes } from './kube-pod';
import { referenceProblems } from './kube-references';
import { schemaProblems } from './kube-schema';
import { parseEnvFile, renderKustomization } from './kustomize';

const BASE = join(__dirname, '..', '..', 'deploy', 'kubernetes');

describe('deploy/kubernetes (kustomize base)', () => {
  const resources = renderKustomization(BASE);
  const deployment = find(resources, 'Deployment')[0] as unknown as IDeployment;
  const pod = deployment.spec!.template;
  const [container] = pod.spec!.containers;
  const env = containerEnv(resources, container);
  const ms = (name: string): number => Number(env[name] ?? 0);

  it('renders a Deployment, Service, HorizontalPodAutoscaler, PodDisruptionBudget, ConfigMaps and a Secret', () => {
    expect(
      resources.map(({ object }) => `${String(object.apiVersion)} ${String(object.kind)}`),
    ).toEqual(
      expect.arrayContaining([
        'apps/v1 Deployment',
        'v1 Service',
        'autoscaling/v2 HorizontalPodAutoscaler',
        'policy/v1 PodDisruptionBudget',
        'v1 ConfigMap',
        'v1 Secret',
      ]),
    );
  });

  it('uses every file of the directory, so none escapes the checks below', () => {
    const used = new Set(resources.flatMap(({ source }) => source.split(', ')));
    const unused = readdirSync(BASE).filter(
      (file) => file !== 'kustomization.yaml' && !used.has(file),
    );
    expect(unused).toEqual([]);
  });

  it('every object is valid against its Kubernetes schema, with no unknown field', () => {
    expect(schemaProblems(resources)).toEqual([]);
  });

  it('every ConfigMap, Secret, volume, port, selector and target it names exists', () => {
    expect(referenceProblems(resources)).toEqual([]);
  });

  it('runs as a numeric non-root user on a read-only root filesystem, without privileges', () => {
    expect(pod.spec!.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: expect.any(Number),
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.spec!.securityContext!.runAsUser).toBeGreaterThan(0);
    for (const each of pod.spec!.containers) {
      expect(each.securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      expect(each.securityContext?.runAsUser ?? 1).not.toBe(0);
      expect(each.securityContext?.privileged ?? false).toBe(false);
      for (const bound of ['requests', 'limits'] as const)
        expect(each.resources?.[bound]).toMatchObject({
          cpu: expect.anything(),
          memory: expect.anything(),
        });
    }
  });

  it('writes uploads being received alone, to an emptyDir at UPLOAD_SPOOL_DIR holding them all', () => {
    const writable = (container.volumeMounts ?? []).filter((mount) => !mount.readOnly);
    expect(writable.map(({ mountPath }) => mountPath)).toEqual([env.UPLOAD_SPOOL_DIR]);
    const volumes = pod.spec!.volumes!.filter((volume) => volume.emptyDir);
    expect(volumes.map(({ name }) => name)).toEqual([writable[0].name]);
    // On the node's disk: a Memory medium would count against the container's memory limit.
    expect(volumes[0].emptyDir!.medium ?? '').toBe('');
    // Every upload in flight fits: past sizeLimit the kubelet evicts the pod.
    const { maxInflightBytes } = loadUploadConfig(env, 1);
    expect(quantityBytes(volumes[0].emptyDir!.sizeLimit)).toBeGreaterThanOrEqual(maxInflightBytes);
  });

  it('writes nothing else (NFT files go to the S3 bucket), and reads the chain file from the ConfigMap', () => {
    expect(env).toMatchObject({ NFT_STORAGE: 's3', NFT_S3_BUCKET: expect.any(String) });
    expect(env.NFT_STORAGE_DIR).toBeUndefined();
    const chains = (container.volumeMounts ?? []).find(
      (mount) => mount.mountPath === posix.dirname(env.CHAIN_CONFIG_FILE),
    );
    const volume = pod.spec!.volumes!.find(({ name }) => name === chains?.name);
    const map = find(resources, 'ConfigMap').find(
      (object) => object.metadata?.name === volume?.configMap?.name,
    );
    expect(Object.keys(map?.data ?? {})).toContain(posix.basename(env.CHAIN_CONFIG_FILE));
  });

  it('probes /health for liveness and /health/ready for readiness', () => {
    expect(container.livenessProbe?.httpGet?.path).toBe('/health');
    expect(container.readinessProbe?.httpGet?.path).toBe('/health/ready');
  });

  it('pauses before stopping long enough for readiness to fail, and ends before the grace period', () => {
    const preStop = container.lifecycle?.preStop;
    // A pause needs no binary in the image: the service's own delay or a preStop sleep action.
    expect(preStop?.exec).toBeUndefined();
    const pauseMs = (preStop?.sleep?.seconds ?? 0) * 1000 + ms('SHUTDOWN_DELAY_MS');
    const readiness = container.readinessProbe!;
    const unreadyMs = (readiness.periodSeconds ?? 10) * (readiness.failureThreshold ?? 3) * 1000;
    expect(pauseMs).toBeGreaterThan(unreadyMs);
    const timeoutMs = env.SHUTDOWN_TIMEOUT_MS === undefined ? 10_000 : ms('SHUTDOWN_TIMEOUT_MS');
    const graceMs = (pod.spec!.terminationGracePeriodSeconds ?? 30) * 1000;
    expect(graceMs).toBeGreaterThan((preStop?.sleep?.seconds ?? 0) * 1000 + timeoutMs);
  });

  it('annotates the metrics port for Prometheus and keeps it out of the Service', () => {
    const metrics = container.ports?.find(({ name }) => name === 'metrics');
    expect(pod.metadata?.annotations).toEqual(
      expect.objectContaining({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(metrics?.containerPort),
        'prometheus.io/path': '/metrics',
      }),
    );
    expect(env.METRICS_PORT ?? '9464').toBe(String(metrics?.containerPort));
    const service = find(resources, 'Service')[0] as unknown as IService;
    const exposed = service.spec!.ports!.map(({ targetPort }) => targetPort);
    expect(exposed).not.toContain('metrics');
    expect(exposed).not.toContain(metrics?.containerPort);
  });

  it('commits no credentials: the Secret holds URL keys only, without userinfo or query', () => {
    const urls = parseEnvFile(join(BASE, 'urls.env'), []);
    for (const [key, value] of Object.entries(urls)) {
      expect(key).toMatch(
        /^(RPC_URL_\d+|PRICE_API_URL|WEATHER_GEOCODING_URL|WEATHER_FORECAST_URL|REDIS_URL)$/,
      );
      const url = new URL(value);
      expect({ key, userinfo: url.username + url.password, query: url.search }).toEqual({
        key,
        userinfo: '',
        query: '',
      });
    }
  });

  it('commits no session key: auth.env holds instructions only, an overlay supplies AUTH_SECRET', () => {
    expect(parseEnvFile(join(BASE, 'auth.env'), [])).toEqual({});
    const refs = (container.envFrom ?? []).map((from) => from.secretRef?.name);
    expect(refs).toContain('dynamic-actions-auth');
  });

  describe('the pod environment boots the service', () => {
    it('the chain file, settings and URLs pass its validation, and the probes answer 200', async () => {
      // The pod's paths, mapped to this checkout: the ConfigMap's file. The S3 store boots
      // without reaching the bucket: it is first called on an upload or a download.
      const local = {
        ...env,
        CHAIN_CONFIG_FILE: join(BASE, posix.basename(env.CHAIN_CONFIG_FILE)),
        // The emptyDir's stand-in: writable, as the mount is.
        UPLOAD_SPOOL_DIR: mkdtempSync(join(tmpdir(), 'pod-spool-')),
        // What the overlay's auth.env supplies (the base commits none): the next test checks that.
        AUTH_SECRET: 'wwhrW5zYwk7SXFL53v62osj82ffd5QttAK6zpeQqhhk=',
      };
      const app = await createTestApp({ env: local });
      try {
        for (const probe of [container.livenessProbe, container.readinessProbe]) {
          const answer = await app.inject({ method: 'GET', url: probe!.httpGet!.path! });
          expect({ path: probe!.httpGet!.path, status: answer.statusCode }).toEqual({
            path: probe!.httpGet!.path,
            status: 200,
          });
        }
      } finally {
        await app.close();
        rmSync(local.UPLOAD_SPOOL_DIR, { recursive: true, force: true });
      }
      // The boot waits up to 2 s for the pod's Redis, which does not resolve here.
    }, 30_000);
  });
});
