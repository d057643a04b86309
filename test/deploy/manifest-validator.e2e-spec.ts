import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IService } from 'kubernetes-models/v1/Service';
import { referenceProblems } from './kube-references';
import { schemaProblems } from './kube-schema';
import { type Rendered, renderKustomization } from './kustomize';

const BASE = join(__dirname, '..', '..', 'deploy', 'kubernetes');

/** The base rendered, with one object changed by `edit` (a deep copy: each test starts clean). */
function broken<T>(kind: string, edit: (object: T) => void): Rendered[] {
  const resources = structuredClone(renderKustomization(BASE));
  const target = resources.find(({ object }) => object.kind === kind);
  edit(target!.object as unknown as T);
  return resources;
}

const container = (object: IDeployment): IContainer => object.spec!.template.spec!.containers[0];
/** A value of the wrong type, on purpose. */
const wrong = <T>(value: unknown): T => value as T;

describe('The manifest check refuses broken manifests', () => {
  it('a misspelt field, naming where it is', () => {
    const resources = broken<IDeployment>('Deployment', (object) => {
      Object.assign(container(object).securityContext!, { readOnlyRootFileSystem: true });
    });
    expect(schemaProblems(resources)).toEqual([
      expect.stringMatching(
        /deployment\.yaml Deployment\/dynamic-actions: spec\.template\.spec\.containers\[0\]\.securityContext\.readOnlyRootFileSystem: .*known properties/,
      ),
    ]);
  });

  it('a misspelt field at the top of a spec', () => {
    const resources = broken<IService>('Service', (object) => {
      Object.assign(object.spec!, { selectors: object.spec!.selector });
    });
    expect(schemaProblems(resources)).toEqual([expect.stringContaining('spec.selectors')]);
  });

  it('a value of the wrong type', () => {
    const resources = broken<IDeployment>('Deployment', (object) => {
      object.spec!.template.spec!.terminationGracePeriodSeconds = wrong<number>('40');
    });
    expect(schemaProblems(resources)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('terminationGracePeriodSeconds must be integer'),
      ]),
    );
  });

  it('a malformed quantity and a value outside an enum', () => {
    const resources = broken<IDeployment>('Deployment', (object) => {
      container(object).resources!.limits!.memory = '512MB';
      container(object).imagePullPolicy = wrong<IContainer['imagePullPolicy']>('Sometimes');
    });
    const problems = schemaProblems(resources).join('\n');
    expect(problems).toContain('limits/memory must match format "quantity"');
    expect(problems).toContain('imagePullPolicy must be equal to one of the allowed values');
  });

  it('a kind or apiVersion it has no schema for', () => {
    const resources = broken<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler', (object) => {
      object.apiVersion = wrong<'autoscaling/v2'>('autoscaling/v2beta1');
    });
    expect(schemaProblems(resources)).toEqual([
      expect.stringContaining('no schema for autoscaling/v2beta1'),
    ]);
  });

  it('a Secret, ConfigMap, port or target that does not exist', () => {
    const resources = broken<IDeployment>('Deployment', (object) => {
      container(object).envFrom![1].secretRef!.name = 'dynamic-actions-url';
      container(object).readinessProbe!.httpGet!.port = 'htp';
      object.spec!.template.spec!.volumes![0].configMap!.name = 'chains';
    });
    const hpa = resources.find(({ object }) => object.kind === 'HorizontalPodAutoscaler')!;
    (hpa.object as unknown as IHorizontalPodAutoscaler).spec!.scaleTargetRef.name =
      'dynamic-action';
    const problems = referenceProblems(resources).join('\n');
    expect(problems).toContain('names Secret dynamic-actions-url, which does not exist');
    expect(problems).toContain('names readinessProbe port htp');
    expect(problems).toContain('names ConfigMap chains');
    expect(problems).toContain('scaleTargetRef Deployment/dynamic-action does not exist');
  });

  it('a selector that matches no pods', () => {
    const resources = broken<IPodDisruptionBudget>('PodDisruptionBudget', (object) => {
      object.spec!.selector!.matchLabels = { 'app.kubernetes.io/name': 'dynamic-action' };
    });
    expect(referenceProblems(resources)).toEqual([
      expect.stringContaining(
        'PodDisruptionBudget/dynamic-actions: selector matches no pod template',
      ),
    ]);
  });

  describe('in kustomization.yaml and the files it lists', () => {
    let dir: string;
    beforeEach(() => {
      dir = join(mkdtempSync(join(tmpdir(), 'kustomize-')), 'base');
      cpSync(BASE, dir, { recursive: true });
    });
    afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

    const edit = (file: string, change: (text: string) => string): void =>
      writeFileSync(join(dir, file), change(readFileSync(join(dir, file), 'utf8')));

    it('the unchanged copy renders (the refusals below come from the edits)', () => {
      expect(renderKustomization(dir).length).toBeGreaterThan(0);
    });

    it('a listed resource or generator file that does not exist', () => {
      rmSync(join(dir, 'pdb.yaml'));
      rmSync(join(dir, 'chains.json'));
      expect(() => renderKustomization(dir)).toThrow(
        /resource pdb\.yaml does not exist[\s\S]*file chains\.json does not exist/,
      );
    });

    it('a field the renderer does not implement, rather than skipping it', () => {
      edit('kustomization.yaml', (text) => `${text}\nnamePrefix: prod-\n`);
      expect(() => renderKustomization(dir)).toThrow(/unsupported field namePrefix/);
    });

    it('a key written twice in a YAML file', () => {
      edit('service.yaml', (text) =>
        text.replace('  type: ClusterIP\n', '  type: ClusterIP\n  type: NodePort\n'),
      );
      expect(() => renderKustomization(dir)).toThrow(/service\.yaml: .*[Mm]ap keys must be unique/);
    });

    it('a line of an env file that is not KEY=VALUE', () => {
      edit('settings.env', (text) => `${text}TRUST PROXY=false\n`);
      expect(() => renderKustomization(dir)).toThrow(/settings\.env:\d+: expected KEY=VALUE/);
    });
  });
});
