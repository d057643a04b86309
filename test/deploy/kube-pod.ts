import type { IContainer } from 'kubernetes-models/v1/Container';
import type { KubeObject, Rendered } from './kustomize';

/** The rendered objects of one kind. */
export const find = (resources: Rendered[], kind: string): KubeObject[] =>
  resources.filter(({ object }) => object.kind === kind).map(({ object }) => object);

/** The environment a container starts with: envFrom ConfigMaps and Secrets, then env. */
export function containerEnv(resources: Rendered[], container: IContainer): Record<string, string> {
  const data = (kind: string, name = ''): Record<string, string> => {
    const object = find(resources, kind).find(({ metadata }) => metadata?.name === name);
    return (object?.data ?? {}) as Record<string, string>;
  };
  const env: Record<string, string> = {};
  for (const { configMapRef, secretRef } of container.envFrom ?? []) {
    if (configMapRef) Object.assign(env, data('ConfigMap', configMapRef.name));
    for (const [key, value] of Object.entries(secretRef ? data('Secret', secretRef.name) : {}))
      env[key] = Buffer.from(value, 'base64').toString('utf8');
  }
  for (const { name, value } of container.env ?? []) if (value !== undefined) env[name] = value;
  return env;
}

const UNITS: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
};

/** Bytes of a Kubernetes quantity (`96Mi`, `1G`, `500`); NaN for any other form. */
export function quantityBytes(quantity: string | number | undefined): number {
  const [, digits, unit] = /^(\d+)(|k|M|G|T|Ki|Mi|Gi|Ti)$/.exec(String(quantity)) ?? [];
  return digits === undefined ? NaN : Number(digits) * UNITS[unit];
}
