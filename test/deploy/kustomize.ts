import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** One Kubernetes object as written in YAML. */
export interface KubeObject {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown; [key: string]: unknown };
  [key: string]: unknown;
}

/** A rendered object and the file it came from (the generator's input for generated ones). */
export interface Rendered {
  source: string;
  object: KubeObject;
}

interface Generator {
  name?: unknown;
  files?: unknown;
  envs?: unknown;
  literals?: unknown;
}

/**
 * The fields this renderer implements. Anything else in kustomization.yaml is refused rather
 * than skipped, so the check never validates less than `kubectl apply -k` would apply: teach
 * this file the new field first.
 */
const KUSTOMIZATION_FIELDS = new Set([
  'apiVersion',
  'kind',
  'resources',
  'configMapGenerator',
  'secretGenerator',
]);
const GENERATOR_FIELDS = new Set(['name', 'files', 'envs', 'literals']);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Every YAML document of a file; duplicate keys and syntax errors are problems. */
export function parseYamlFile(path: string, problems: string[]): unknown[] {
  const docs = parseAllDocuments(readFileSync(path, 'utf8'), { uniqueKeys: true });
  const list = Array.isArray(docs) ? docs : [docs];
  const values: unknown[] = [];
  for (const doc of list) {
    for (const error of doc.errors) problems.push(`${basename(path)}: ${error.message}`);
    if (doc.errors.length === 0 && doc.contents !== null) values.push(doc.toJS());
  }
  return values;
}

/** KEY=VALUE lines as kustomize reads an `envs` file: blank lines and `#` comments skipped. */
export function parseEnvFile(path: string, problems: string[]): Record<string, string> {
  const data: Record<string, string> = {};
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((raw, index) => {
      const line = raw.trimStart();
      if (line === '' || line.startsWith('#')) return;
      const eq = line.indexOf('=');
      const key = eq > 0 ? line.slice(0, eq) : '';
      if (!ENV_NAME.test(key)) {
        problems.push(`${basename(path)}:${index + 1}: expected KEY=VALUE with a variable name`);
        return;
      }
      if (key in data) problems.push(`${basename(path)}:${index + 1}: ${key} is set twice`);
      data[key] = line.slice(eq + 1);
    });
  return data;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

function generate(dir: string, kind: 'ConfigMap' | 'Secret', spec: Generator, problems: string[]) {
  const where = `${kind} generator ${String(spec.name)}`;
  for (const field of Object.keys(spec)) {
    if (!GENERATOR_FIELDS.has(field)) problems.push(`${where}: unsupported field ${field}`);
  }
  if (typeof spec.name !== 'string' || spec.name === '') problems.push(`${where}: no name`);
  const data: Record<string, string> = {};
  const sources: string[] = [];
  const add = (key: string, value: string, from: string): void => {
    if (key in data) problems.push(`${where}: key ${key} twice (${from})`);
    data[key] = value;
  };
  for (const file of strings(spec.files)) {
    const [key, path] = file.includes('=') ? file.split('=', 2) : [basename(file), file];
    if (!existsSync(join(dir, path))) problems.push(`${where}: file ${path} does not exist`);
    else add(key, readFileSync(join(dir, path), 'utf8'), path);
    sources.push(path);
  }
  for (const file of strings(spec.envs)) {
    if (!existsSync(join(dir, file))) problems.push(`${where}: env file ${file} does not exist`);
    else
      Object.entries(parseEnvFile(join(dir, file), problems)).forEach(([k, v]) => add(k, v, file));
    sources.push(file);
  }
  for (const literal of strings(spec.literals)) {
    const eq = literal.indexOf('=');
    add(literal.slice(0, eq), literal.slice(eq + 1), 'literals');
  }
  const metadata = { name: spec.name };
  const object: KubeObject =
    kind === 'ConfigMap'
      ? { apiVersion: 'v1', kind, metadata, data }
      : {
          apiVersion: 'v1',
          kind,
          metadata,
          type: 'Opaque',
          data: Object.fromEntries(
            Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
          ),
        };
  return { source: sources.join(', ') || 'kustomization.yaml', object };
}

/**
 * Renders a kustomize base as `kubectl kustomize` would, for the fields it knows: the listed
 * resource files and the ConfigMap/Secret generators. Generated names keep no hash suffix
 * (kustomize adds one and rewrites the references to it). Throws every problem found.
 */
export function renderKustomization(dir: string): Rendered[] {
  const problems: string[] = [];
  const path = join(dir, 'kustomization.yaml');
  const [config] = parseYamlFile(path, problems) as Record<string, unknown>[];
  if (!config) throw new Error(`${path}: ${problems.join('; ') || 'empty'}`);
  if (config.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || config.kind !== 'Kustomization')
    problems.push('kustomization.yaml: expected a kustomize.config.k8s.io/v1beta1 Kustomization');
  for (const field of Object.keys(config)) {
    if (!KUSTOMIZATION_FIELDS.has(field))
      problems.push(
        `kustomization.yaml: unsupported field ${field} (teach test/deploy/kustomize.ts)`,
      );
  }
  const rendered: Rendered[] = [];
  for (const file of strings(config.resources)) {
    if (!existsSync(join(dir, file))) {
      problems.push(`kustomization.yaml: resource ${file} does not exist`);
      continue;
    }
    for (const object of parseYamlFile(join(dir, file), problems)) {
      rendered.push({ source: file, object: object as KubeObject });
    }
  }
  const generators = (field: string): Generator[] =>
    Array.isArray(config[field]) ? (config[field] as Generator[]) : [];
  for (const spec of generators('configMapGenerator'))
    rendered.push(generate(dir, 'ConfigMap', spec, problems));
  for (const spec of generators('secretGenerator'))
    rendered.push(generate(dir, 'Secret', spec, problems));
  if (problems.length > 0) throw new Error(`${dir}:\n  - ${problems.join('\n  - ')}`);
  return rendered;
}
