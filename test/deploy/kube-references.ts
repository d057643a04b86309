import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import type { IService } from 'kubernetes-models/v1/Service';
import { nameOf } from './kube-schema';
import type { Rendered } from './kustomize';

type Labels = Record<string, string> | undefined;

const matches = (selector: Labels, labels: Labels): boolean =>
  selector !== undefined &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([key, value]) => labels?.[key] === value);

/** The pod templates of the workloads (Deployments), each with its owner's description. */
export function podTemplates(resources: Rendered[]): { owner: string; pod: IPodTemplateSpec }[] {
  return resources
    .filter(({ object }) => object.kind === 'Deployment')
    .map((resource) => ({
      owner: nameOf(resource),
      pod: (resource.object as unknown as IDeployment).spec?.template ?? {},
    }));
}

function containerProblems(container: IContainer, exists: Exists, problems: string[]): void {
  const ports = new Set((container.ports ?? []).map((port) => port.name));
  const numbers = new Set((container.ports ?? []).map((port) => port.containerPort));
  const probes = { startupProbe: 1, livenessProbe: 1, readinessProbe: 1 } as const;
  for (const probe of Object.keys(probes) as (keyof typeof probes)[]) {
    const port = container[probe]?.httpGet?.port;
    if (typeof port === 'string' && !ports.has(port)) problems.push(`${probe} port ${port}`);
    if (typeof port === 'number' && !numbers.has(port)) problems.push(`${probe} port ${port}`);
  }
  for (const from of container.envFrom ?? []) {
    const { configMapRef: map, secretRef: secret } = from;
    if (map && !map.optional && !exists('ConfigMap', map.name))
      problems.push(`ConfigMap ${map.name}`);
    if (secret && !secret.optional && !exists('Secret', secret.name))
      problems.push(`Secret ${secret.name}`);
  }
  for (const { name, valueFrom } of container.env ?? []) {
    const { configMapKeyRef: map, secretKeyRef: secret } = valueFrom ?? {};
    if (map && !map.optional && !exists('ConfigMap', map.name, map.key))
      problems.push(`${name}: ConfigMap ${map.name} key ${map.key}`);
    if (secret && !secret.optional && !exists('Secret', secret.name, secret.key))
      problems.push(`${name}: Secret ${secret.name} key ${secret.key}`);
  }
}

type Exists = (kind: string, name: string | undefined, key?: string) => boolean;

/**
 * What kustomize does not check: every ConfigMap, Secret, claim, volume and port a pod names
 * exists (with the keys it mounts), and every selector and target finds its pods. [] when so.
 */
export function referenceProblems(resources: Rendered[]): string[] {
  const problems: string[] = [];
  const byKey = new Map<string, Rendered>();
  for (const resource of resources) {
    const name = resource.object.metadata?.name;
    if (typeof name !== 'string' || name === '') problems.push(`${nameOf(resource)}: no name`);
    const key = `${String(resource.object.kind)}/${String(name)}`;
    if (byKey.has(key)) problems.push(`${nameOf(resource)}: declared twice`);
    byKey.set(key, resource);
  }
  const exists: Exists = (kind, name, key) => {
    const found = byKey.get(`${kind}/${String(name)}`)?.object;
    const data = found?.data as Record<string, unknown> | undefined;
    return found !== undefined && (key === undefined || data?.[key] !== undefined);
  };
  const pods = podTemplates(resources);
  for (const { owner, pod } of pods) {
    const own: string[] = [];
    const volumes = new Set((pod.spec?.volumes ?? []).map((volume) => volume.name));
    for (const { configMap, secret, persistentVolumeClaim: claim } of pod.spec?.volumes ?? []) {
      if (configMap && !configMap.optional && !exists('ConfigMap', configMap.name))
        own.push(`ConfigMap ${configMap.name}`);
      for (const item of configMap?.items ?? [])
        if (!exists('ConfigMap', configMap?.name, item.key)) own.push(`key ${item.key}`);
      if (secret && !secret.optional && !exists('Secret', secret.secretName))
        own.push(`Secret ${secret.secretName}`);
      if (claim && !exists('PersistentVolumeClaim', claim.claimName))
        own.push(`PersistentVolumeClaim ${claim.claimName}`);
    }
    for (const container of [
      ...(pod.spec?.initContainers ?? []),
      ...(pod.spec?.containers ?? []),
    ]) {
      for (const mount of container.volumeMounts ?? [])
        if (!volumes.has(mount.name)) own.push(`volume ${mount.name}`);
      containerProblems(container, exists, own);
    }
    problems.push(...own.map((what) => `${owner}: names ${what}, which does not exist`));
  }
  for (const resource of resources) {
    const { kind } = resource.object;
    const where = nameOf(resource);
    if (kind === 'Deployment') {
      const spec = (resource.object as unknown as IDeployment).spec;
      if (!matches(spec?.selector.matchLabels, spec?.template.metadata?.labels))
        problems.push(`${where}: selector does not match its pod template's labels`);
    }
    if (kind === 'Service') {
      const spec = (resource.object as unknown as IService).spec;
      const pod = pods.find(({ pod }) => matches(spec?.selector, pod.metadata?.labels))?.pod;
      if (!pod) problems.push(`${where}: selector matches no pod template`);
      const ports = (pod?.spec?.containers ?? []).flatMap((container) => container.ports ?? []);
      for (const { targetPort } of spec?.ports ?? []) {
        const found = ports.some((port) => [port.name, port.containerPort].includes(targetPort));
        if (pod && targetPort !== undefined && !found)
          problems.push(`${where}: targetPort ${targetPort} is no container port`);
      }
    }
    if (kind === 'PodDisruptionBudget') {
      const selector = (resource.object as unknown as IPodDisruptionBudget).spec?.selector;
      if (!pods.some(({ pod }) => matches(selector?.matchLabels, pod.metadata?.labels)))
        problems.push(`${where}: selector matches no pod template`);
    }
    if (kind === 'NetworkPolicy') problems.push(...policyProblems(resource, pods));
    if (kind === 'HorizontalPodAutoscaler') {
      const target = (resource.object as unknown as IHorizontalPodAutoscaler).spec?.scaleTargetRef;
      if (!exists(String(target?.kind), target?.name))
        problems.push(`${where}: scaleTargetRef ${target?.kind}/${target?.name} does not exist`);
    }
  }
  return problems;
}

/** A NetworkPolicy selects pods, allows from pods that exist, on ports they name. */
function policyProblems(
  resource: Rendered,
  pods: { owner: string; pod: IPodTemplateSpec }[],
): string[] {
  const where = nameOf(resource);
  const spec = (resource.object as unknown as INetworkPolicy).spec;
  const selected = pods.filter(({ pod }) =>
    matches(spec?.podSelector.matchLabels, pod.metadata?.labels),
  );
  if (selected.length === 0) return [`${where}: podSelector matches no pod template`];
  const problems: string[] = [];
  const named = new Set(
    selected.flatMap(({ pod }) =>
      (pod.spec?.containers ?? []).flatMap((c) => (c.ports ?? []).map((port) => port.name)),
    ),
  );
  for (const rule of spec?.ingress ?? []) {
    for (const { port } of rule.ports ?? [])
      if (typeof port === 'string' && !named.has(port))
        problems.push(`${where}: port ${port} is no container port of the pods it selects`);
    for (const { podSelector } of rule.from ?? [])
      if (
        podSelector &&
        !pods.some(({ pod }) => matches(podSelector.matchLabels, pod.metadata?.labels))
      )
        problems.push(`${where}: an ingress podSelector matches no pod template`);
  }
  return problems;
}
