import { join } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, PersistentVolumeClaim, Secret, Service } from 'kubernetes-models/v1';
import ts from 'typescript';
import type { Rendered } from './kustomize';

interface Kind {
  /** kubernetes-models' class: its validate() runs the OpenAPI schema (types, enums, formats). */
  model: new (data: never) => { validate(): void };
  /** The module and interface of the same schema as TypeScript types, for unknown fields. */
  types: string;
}

/** The kinds the manifests may use; a new kind is added here (kubernetes-models has them all). */
const KINDS: Record<string, Kind> = {
  'apps/v1 Deployment': { model: Deployment, types: 'apps/v1/Deployment' },
  'autoscaling/v2 HorizontalPodAutoscaler': {
    model: HorizontalPodAutoscaler,
    types: 'autoscaling/v2/HorizontalPodAutoscaler',
  },
  'networking.k8s.io/v1 NetworkPolicy': {
    model: NetworkPolicy,
    types: 'networking.k8s.io/v1/NetworkPolicy',
  },
  'policy/v1 PodDisruptionBudget': {
    model: PodDisruptionBudget,
    types: 'policy/v1/PodDisruptionBudget',
  },
  'v1 ConfigMap': { model: ConfigMap, types: 'v1/ConfigMap' },
  'v1 PersistentVolumeClaim': { model: PersistentVolumeClaim, types: 'v1/PersistentVolumeClaim' },
  'v1 Secret': { model: Secret, types: 'v1/Secret' },
  'v1 Service': { model: Service, types: 'v1/Service' },
};

export const nameOf = ({ source, object }: Rendered): string =>
  `${source} ${String(object.kind)}/${String(object.metadata?.name)}`;

const kindOf = ({ object }: Rendered): Kind | undefined =>
  KINDS[`${String(object.apiVersion)} ${String(object.kind)}`];

/** The JSON path of the literal at a position of a generated source file. */
function pathAt(file: ts.SourceFile, position: number): string {
  let node: ts.Node = file;
  const descend = (parent: ts.Node): void =>
    ts.forEachChild(parent, (child) => {
      if (child.getStart(file) <= position && position < child.getEnd()) {
        node = child;
        descend(child);
      }
    });
  descend(file);
  const parts: string[] = [];
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    if (ts.isPropertyAssignment(at)) parts.unshift(`.${at.name.getText(file).replace(/"/g, '')}`);
    if (at.parent && ts.isArrayLiteralExpression(at.parent))
      parts.unshift(`[${at.parent.elements.indexOf(at as ts.Expression)}]`);
    if (ts.isVariableDeclaration(at)) break;
  }
  return parts.join('').replace(/^\./, '') || '(root)';
}

/**
 * Unknown fields. The OpenAPI schemas allow any extra property, so a misspelt field would pass
 * them and be dropped by the API server (or refused by kubectl's strict field validation). The
 * same schemas as TypeScript interfaces catch it: each object is type-checked as an object
 * literal of its kind's interface, where an excess property is an error.
 */
function unknownFields(resources: Rendered[]): string[] {
  const files = new Map<string, { text: string; resource: Rendered }>();
  resources.forEach((resource, index) => {
    const kind = kindOf(resource);
    if (!kind) return;
    const { kind: name } = resource.object;
    const text =
      `import type { I${String(name)} } from 'kubernetes-models/${kind.types}';\n` +
      `export const manifest: I${String(name)} = ${JSON.stringify(resource.object, null, 2)};\n`;
    // Beside this file, so that kubernetes-models resolves from the project's node_modules.
    files.set(join(__dirname, `manifest-${index}.generated.ts`), { text, resource });
  });
  const options: ts.CompilerOptions = {
    noEmit: true,
    strict: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts'],
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) => {
    const own = files.get(name);
    return own
      ? ts.createSourceFile(name, own.text, language, true)
      : getSourceFile.call(host, name, language, ...rest);
  };
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name)?.text ?? readFile.call(host, name);
  const program = ts.createProgram([...files.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    const own = diagnostic.file && files.get(diagnostic.file.fileName);
    if (!own || diagnostic.file === undefined || diagnostic.start === undefined) return message;
    return `${nameOf(own.resource)}: ${pathAt(diagnostic.file, diagnostic.start)}: ${message}`;
  });
}

/** Every object against its kind's Kubernetes schema, unknown fields included; [] when valid. */
export function schemaProblems(resources: Rendered[]): string[] {
  const problems: string[] = [];
  for (const resource of resources) {
    const kind = kindOf(resource);
    if (!kind) {
      problems.push(`${nameOf(resource)}: no schema for ${String(resource.object.apiVersion)}`);
      continue;
    }
    try {
      new kind.model(resource.object as never).validate();
    } catch (error) {
      problems.push(`${nameOf(resource)}: ${(error as Error).message}`);
    }
  }
  return [...problems, ...unknownFields(resources)];
}
