import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, posix } from 'node:path';
import { describe, it } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';
import { parseConfig } from '../../src/config/parseConfig.js';
import type { Config } from '../../src/config/types.js';
import { parseShard } from '../../src/scheduler/shard.js';
import { buildGrafanaConfigMap } from '../../scripts/build-grafana-configmap.js';
import { repoPath } from '../helpers/repoRoot.js';

const DIR = repoPath('deploy/kubernetes');

// Manifests are untyped data; these helpers keep the checks readable.
type Obj = Record<string, any>;
interface Manifest {
  file: string;
  doc: Obj;
}

function loadManifests(): Manifest[] {
  const out: Manifest[] = [];
  for (const file of readdirSync(DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const docs = parseAllDocuments(readFileSync(`${DIR}/${file}`, 'utf8'), { prettyErrors: false });
    for (const d of Array.isArray(docs) ? docs : [docs]) {
      const problems = [...d.errors, ...d.warnings].map((e) => e.message);
      assert.deepEqual(problems, [], `${file}: YAML problems`);
      out.push({ file, doc: d.toJS() as Obj });
    }
  }
  return out;
}

const MANIFESTS = loadManifests();

function only(kind: string, file?: string): Obj {
  const found = MANIFESTS.filter((m) => m.doc['kind'] === kind && (file === undefined || m.file === file));
  assert.equal(found.length, 1, `expected one ${kind}${file ? ` in ${file}` : ''}, found ${found.length}`);
  return (found[0] as Manifest).doc;
}

const CONFIG_MAP = only('ConfigMap', 'configmap.yaml');
const SECRET = only('Secret');
const SECRET_NAME: string = SECRET['metadata']['name'];
const SECRET_KEYS = Object.keys(SECRET['stringData'] ?? {});
const WORKLOADS = MANIFESTS.filter((m) => ['Deployment', 'StatefulSet'].includes(m.doc['kind']));

/** A token that satisfies the config's rule, standing in for the Secret's value. */
const FAKE_TOKEN = 'tok-0123456789abcdef0123';

function podSpec(workload: Obj): Obj {
  return workload['spec']['template']['spec'];
}

function container(workload: Obj): Obj {
  const containers: Obj[] = podSpec(workload)['containers'];
  assert.equal(containers.length, 1, 'one container per pod');
  return containers[0] as Obj;
}

/** The paths under which a workload mounts a Secret volume, with the file names it projects. */
function secretMounts(workload: Obj): { mountPath: string; files: string[] }[] {
  const volumes: Obj[] = podSpec(workload)['volumes'] ?? [];
  const mounts: Obj[] = container(workload)['volumeMounts'] ?? [];
  return mounts.flatMap((m) => {
    const v = volumes.find((vol) => vol['name'] === m['name']);
    if (!v?.['secret']) return [];
    assert.equal(v['secret']['secretName'], SECRET_NAME);
    assert.equal(m['readOnly'], true, `secret volume ${m['name']} must be mounted read-only`);
    const items: Obj[] = v['secret']['items'] ?? [];
    for (const item of items) assert.ok(SECRET_KEYS.includes(item['key']), `Secret has no key ${item['key']}`);
    return [{ mountPath: m['mountPath'] as string, files: items.map((i) => i['path'] as string) }];
  });
}

/** The embedded config, parsed as the pod would: env from the workload, files from its Secret mounts. */
function podConfig(workload: Obj): Config {
  const env: Record<string, string> = {};
  for (const e of container(workload)['env'] ?? []) {
    if (e['valueFrom']?.['secretKeyRef']) env[e['name']] = e['name'] === 'COHERENCY_AUTH_TOKEN' ? FAKE_TOKEN : `fake-${e['name']}`;
    else if (typeof e['value'] === 'string') env[e['name']] = e['value'];
  }
  const files = secretMounts(workload).flatMap((m) => m.files.map((f) => posix.join(m.mountPath, f)));
  const r = parseConfig(CONFIG_MAP['data']['coherency.yaml'], {
    env,
    source: 'configmap.yaml',
    checkFile: (path) => (files.includes(path) ? null : 'does not exist'),
  });
  assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
  return r.config;
}

describe('deploy/kubernetes: every manifest', () => {
  it('parses, and names its kind and itself', () => {
    assert.ok(MANIFESTS.length >= 8, `only ${MANIFESTS.length} documents`);
    for (const { file, doc } of MANIFESTS) {
      assert.ok(doc['apiVersion'] && doc['kind'], `${file}: apiVersion and kind`);
      if (doc['kind'] !== 'Kustomization') assert.ok(doc['metadata']?.['name'], `${file}: metadata.name`);
    }
  });

  it('kustomization.yaml lists the default set, without the Secret example or the sharded variant', () => {
    const resources: string[] = only('Kustomization')['resources'];
    for (const r of resources) assert.ok(existsSync(`${DIR}/${r}`), `${r} does not exist`);
    assert.deepEqual([...resources].sort(), [
      'configmap.yaml',
      'deployment.yaml',
      'grafana-dashboard.yaml',
      'networkpolicy.yaml',
      'poddisruptionbudget.yaml',
      'prometheusrule.yaml',
      'service.yaml',
      'servicemonitor.yaml',
    ]);
  });
});

describe('deploy/kubernetes: workloads', () => {
  assert.deepEqual(
    WORKLOADS.map((w) => w.file),
    ['deployment.yaml', 'statefulset-sharded.yaml'],
  );

  for (const { file, doc: workload } of WORKLOADS) {
    describe(file, () => {
      const pod = podSpec(workload);
      const c = container(workload);

      it('runs as non-root with a read-only root, no privilege escalation, no capabilities, RuntimeDefault seccomp', () => {
        // Container settings override the pod's.
        const effective = { ...pod['securityContext'], ...c['securityContext'] };
        assert.equal(effective['runAsNonRoot'], true);
        assert.equal(effective['runAsUser'], 1000);
        assert.equal(effective['readOnlyRootFilesystem'], true);
        assert.equal(effective['allowPrivilegeEscalation'], false);
        assert.deepEqual(effective['capabilities']?.['drop'], ['ALL']);
        assert.equal(effective['privileged'] ?? false, false);
        assert.equal(effective['seccompProfile']?.['type'], 'RuntimeDefault');
        assert.equal(pod['automountServiceAccountToken'], false);
        assert.equal(pod['hostNetwork'] ?? false, false);
      });

      it('sets requests and limits', () => {
        for (const kind of ['requests', 'limits']) {
          for (const r of ['cpu', 'memory']) assert.ok(c['resources']?.[kind]?.[r], `resources.${kind}.${r}`);
        }
      });

      it('serves on port 9464 named http, with liveness on /-/healthy and readiness on /-/ready', () => {
        assert.deepEqual(c['ports'], [{ name: 'http', containerPort: 9464, protocol: 'TCP' }]);
        assert.deepEqual(c['livenessProbe']?.['httpGet'], { path: '/-/healthy', port: 'http' });
        assert.deepEqual(c['readinessProbe']?.['httpGet'], { path: '/-/ready', port: 'http' });
      });

      it('gives the probes timeouts the daemon keeps under load (answers within ~100 ms), without restarting it for one busy moment', () => {
        assert.ok(c['livenessProbe']?.['timeoutSeconds'] <= 2, 'liveness timeout at most 2 s');
        assert.ok(c['readinessProbe']?.['timeoutSeconds'] <= 1, 'readiness timeout at most 1 s');
        const live = c['livenessProbe'];
        assert.ok(live['periodSeconds'] * live['failureThreshold'] >= 60, 'a restart needs a minute of failed checks');
      });

      it('starts serve with the mounted config on 0.0.0.0', () => {
        // the release the manifests are of: package.json's version
        assert.equal(c['image'], `coherency-exporter:${JSON.parse(readFileSync(repoPath('package.json'), 'utf8')).version}`);
        const args: string[] = c['args'];
        assert.deepEqual(args.slice(0, 5), ['serve', '--config', '/etc/coherency/coherency.yaml', '--host', '0.0.0.0']);
        const configMount = (c['volumeMounts'] as Obj[]).find((m) => m['mountPath'] === dirname(args[2] as string));
        assert.ok(configMount, 'the config directory is mounted');
        assert.equal(configMount['readOnly'], true);
        assert.equal(configMount['subPath'], undefined, 'no subPath, so ConfigMap edits reach the pod');
        const volume = (pod['volumes'] as Obj[]).find((v) => v['name'] === configMount['name']);
        assert.equal(volume?.['configMap']?.['name'], CONFIG_MAP['metadata']['name']);
      });

      it('takes the auth token and apiKeyEnv keys from the Secret', () => {
        const env: Obj[] = c['env'];
        const fromSecret = (name: string): Obj | undefined => env.find((e) => e['name'] === name)?.['valueFrom']?.['secretKeyRef'];
        assert.deepEqual(fromSecret('COHERENCY_AUTH_TOKEN'), { name: SECRET_NAME, key: 'auth-token' });
        const config = podConfig(workload);
        const keyEnvs = config.targets.map((t) => t.apiKeyEnv).filter((n): n is string => n !== null);
        assert.ok(keyEnvs.length > 0, 'the example shows apiKeyEnv');
        for (const name of keyEnvs) {
          const ref = fromSecret(name);
          assert.ok(ref, `${name} comes from a secretKeyRef`);
          assert.equal(ref['name'], SECRET_NAME);
          assert.ok(SECRET_KEYS.includes(ref['key']), `Secret has no key ${ref['key']}`);
        }
        for (const e of env)
          assert.equal(e['valueFrom']?.['secretKeyRef'] && e['value'], undefined, `${e['name']}: no literal values for secrets`);
        // A Secret without some target's key still starts the pod (the exporter then names what is
        // missing) instead of CreateContainerConfigError; the auth token stays required.
        for (const name of keyEnvs) assert.equal(fromSecret(name)?.['optional'], true, `${name}: optional`);
        assert.equal(fromSecret('COHERENCY_AUTH_TOKEN')?.['optional'], undefined);
        const keyVolumes = (pod['volumes'] as Obj[]).filter((v) => v['secret']);
        for (const v of keyVolumes) assert.equal(v['secret']['optional'], true, `volume ${v['name']}: optional`);
      });

      it('mounts every apiKeyFile from the Secret', () => {
        const config = podConfig(workload);
        const keyFiles = config.targets.map((t) => t.apiKeyFile).filter((f): f is string => f !== null);
        assert.ok(keyFiles.length > 0, 'the example shows apiKeyFile');
        const projected = secretMounts(workload).flatMap((m) => m.files.map((f) => posix.join(m.mountPath, f)));
        for (const f of keyFiles) assert.ok(projected.includes(f), `${f} is not projected from the Secret`);
      });

      it('mounts a writable emptyDir or claim at storage.dir', () => {
        const dir = podConfig(workload).storage.dir;
        assert.ok(dir !== null, 'storage.dir is set');
        const mount = (c['volumeMounts'] as Obj[]).find((m) => dir === m['mountPath'] || dir.startsWith(`${m['mountPath']}/`));
        assert.ok(mount, `nothing is mounted at ${dir}`);
        assert.notEqual(mount['readOnly'], true);
        const volume = (pod['volumes'] as Obj[] | undefined)?.find((v) => v['name'] === mount['name']);
        const claim = (workload['spec']['volumeClaimTemplates'] as Obj[] | undefined)?.find((v) => v['metadata']['name'] === mount['name']);
        assert.ok(volume?.['emptyDir'] || volume?.['persistentVolumeClaim'] || claim, `${mount['name']} is an emptyDir or a claim`);
      });

      it('is selected by a Service that exposes http', () => {
        const labels: Obj = workload['spec']['template']['metadata']['labels'];
        for (const [k, v] of Object.entries(workload['spec']['selector']['matchLabels'] as Obj)) {
          assert.equal(labels[k], v, `the pod template carries the selector label ${k}`);
        }
        const services = MANIFESTS.filter((m) => m.doc['kind'] === 'Service').map((m) => m.doc);
        const matching = services.filter((s) => Object.entries(s['spec']['selector'] as Obj).every(([k, v]) => labels[k] === v));
        assert.equal(matching.length, 1, 'exactly one Service selects these pods');
        assert.deepEqual((matching[0] as Obj)['spec']['ports'], [{ name: 'http', port: 9464, targetPort: 'http', protocol: 'TCP' }]);
      });
    });
  }
});

describe('deploy/kubernetes/configmap.yaml', () => {
  it('passes parseConfig with the env and key files the pod has', () => {
    const config = podConfig(only('Deployment'));
    assert.ok(config.server.authToken !== null, 'COHERENCY_AUTH_TOKEN protects the API');
    assert.ok(
      config.targets.every((t) => /^http:\/\/[a-z0-9-]+\.[a-z0-9-]+\.svc(:\d+)?\/v1$/.test(t.baseUrl)),
      'in-cluster Services',
    );
    assert.ok(config.targets.some((t) => t.baseUrl === 'http://vllm.inference.svc:8000/v1'));
  });

  it('fails to load without the Secret, naming what is missing', () => {
    const r = parseConfig(CONFIG_MAP['data']['coherency.yaml'], { env: {}, checkFile: () => 'does not exist' });
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.errors.some((e) => e.includes('VLLM_API_KEY is not set')), JSON.stringify(r));
    assert.ok(!r.ok && r.errors.some((e) => e.startsWith('targets[1].apiKeyFile: file "/var/run/secrets/')), JSON.stringify(r));
  });
});

describe('deploy/kubernetes/secret.example.yaml', () => {
  it('holds only marked placeholders', () => {
    assert.ok(SECRET_KEYS.length > 0);
    for (const [key, value] of Object.entries(SECRET['stringData'] as Record<string, string>)) {
      assert.match(value, /REPLACE_ME/, `${key} is not a placeholder`);
    }
    assert.equal(SECRET['data'], undefined, 'no base64 values');
  });

  it('has an auth-token placeholder the exporter refuses, so a copied example never runs', () => {
    const token = SECRET['stringData']['auth-token'] as string;
    const r = parseConfig(CONFIG_MAP['data']['coherency.yaml'], {
      env: { VLLM_API_KEY: 'k', COHERENCY_AUTH_TOKEN: token },
      checkFile: () => null,
    });
    assert.equal(r.ok, false);
    assert.deepEqual(r.ok ? [] : r.errors, [
      'COHERENCY_AUTH_TOKEN: must be a string of at least 16 characters, printable ASCII without spaces',
    ]);
  });
});

describe('deploy/kubernetes/servicemonitor.yaml', () => {
  const monitor = only('ServiceMonitor');
  const endpoints: Obj[] = monitor['spec']['endpoints'];

  it('scrapes http on /metrics every 30 s', () => {
    assert.equal(endpoints.length, 1);
    assert.equal(endpoints[0]?.['port'], 'http');
    assert.equal(endpoints[0]?.['path'], '/metrics');
    assert.equal(endpoints[0]?.['interval'], '30s');
  });

  it('selects the Services of both variants, under job="coherency-exporter" (the alert rules expect it)', () => {
    const selector: Obj = monitor['spec']['selector']['matchLabels'];
    const services = MANIFESTS.filter((m) => m.doc['kind'] === 'Service').map((m) => m.doc);
    assert.equal(services.length, 2);
    for (const s of services) {
      const labels: Obj = s['metadata']['labels'];
      assert.ok(
        Object.entries(selector).every(([k, v]) => labels[k] === v),
        `${s['metadata']['name']} is not selected`,
      );
      assert.equal(labels[monitor['spec']['jobLabel']], 'coherency-exporter');
    }
    assert.match(readFileSync(repoPath('deploy/prometheus/rules.yml'), 'utf8'), /job="coherency-exporter"/);
  });

  // The same Secret key the exporter reads as COHERENCY_AUTH_TOKEN.
  const BEARER = { type: 'Bearer', credentials: { name: SECRET_NAME, key: 'auth-token' } };

  it('sends the token when the config protects /metrics', () => {
    const config = podConfig(only('Deployment'));
    const auth = endpoints[0]?.['authorization'];
    if (config.server.metricsAuth) assert.deepEqual(auth, BEARER);
    else assert.equal(auth, undefined, 'metricsAuth is false: /metrics is open');
  });

  it('has the authorization block to uncomment for metricsAuth: true', () => {
    const lines = readFileSync(`${DIR}/servicemonitor.yaml`, 'utf8').split('\n');
    const start = lines.findIndex((l) => /^\s*# authorization:/.test(l));
    if (start < 0) {
      assert.deepEqual(endpoints[0]?.['authorization'], BEARER, 'neither active nor commented out');
      return;
    }
    const block: string[] = [];
    for (let i = start; i < lines.length && /^\s*# /.test(lines[i] ?? ''); i++) block.push((lines[i] as string).replace(/^(\s*)# /, '$1'));
    assert.deepEqual(parse(block.join('\n')), { authorization: BEARER });
  });
});

describe('deploy/kubernetes/prometheusrule.yaml', () => {
  it('carries exactly the groups of deploy/prometheus/rules.yml', () => {
    const rules = parse(readFileSync(repoPath('deploy/prometheus/rules.yml'), 'utf8')) as Obj;
    const rule = only('PrometheusRule');
    assert.equal(rule['apiVersion'], 'monitoring.coreos.com/v1');
    assert.deepEqual(rule['spec']['groups'], rules['groups'], 'out of date: run  node --import tsx scripts/build-prometheus-rule.ts');
  });
});

/** Whether a label selector's matchLabels select these labels. */
const selects = (selector: Obj, labels: Obj) => Object.entries(selector['matchLabels'] as Obj).every(([k, v]) => labels[k] === v);
const podLabels = WORKLOADS.map((w) => w.doc['spec']['template']['metadata']['labels'] as Obj);

describe('deploy/kubernetes/poddisruptionbudget.yaml', () => {
  it('covers the pods of both variants and lets a drain evict one at a time (never blocks it)', () => {
    const pdb = only('PodDisruptionBudget');
    assert.equal(pdb['apiVersion'], 'policy/v1');
    for (const labels of podLabels) assert.ok(selects(pdb['spec']['selector'], labels));
    assert.equal(pdb['spec']['maxUnavailable'], 1);
    assert.equal(pdb['spec']['minAvailable'], undefined, 'minAvailable: 1 on one replica would block every drain');
  });
});

describe('deploy/kubernetes/networkpolicy.yaml', () => {
  const policy = only('NetworkPolicy');
  const spec: Obj = policy['spec'];

  it('applies to the pods of both variants, in both directions', () => {
    for (const labels of podLabels) assert.ok(selects(spec['podSelector'], labels));
    assert.deepEqual(spec['policyTypes'], ['Ingress', 'Egress']);
  });

  it('lets in only Prometheus, on the http port', () => {
    const ingress: Obj[] = spec['ingress'];
    assert.equal(ingress.length, 1);
    assert.deepEqual(ingress[0]!['ports'], [{ port: 'http', protocol: 'TCP' }]);
    assert.deepEqual(ingress[0]!['from'], [
      { namespaceSelector: {}, podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } } },
    ]);
  });

  it("lets out DNS and every target of configmap.yaml (its Service's namespace and port), nothing else", () => {
    const egress: Obj[] = spec['egress'];
    const allowed = (namespace: string, port: number) =>
      egress.some(
        (rule) =>
          (rule['to'] as Obj[]).some((to) => to['namespaceSelector']?.['matchLabels']?.['kubernetes.io/metadata.name'] === namespace) &&
          (rule['ports'] as Obj[]).some((p) => p['port'] === port && p['protocol'] === 'TCP'),
      );
    const config = podConfig(only('Deployment'));
    for (const t of config.targets) {
      const url = new URL(t.baseUrl);
      const namespace = url.hostname.split('.')[1] ?? '';
      assert.ok(allowed(namespace, Number(url.port)), `${t.name}: ${t.baseUrl} is not let out`);
    }
    const dns = egress.find((rule) => (rule['ports'] as Obj[]).some((p) => p['port'] === 53));
    assert.deepEqual(
      ((dns?.['ports'] ?? []) as Obj[]).map((p) => p['protocol']),
      ['UDP', 'TCP'],
    );
    assert.ok(
      egress.every((rule) => Array.isArray(rule['to']) && Array.isArray(rule['ports'])),
      'every rule names where and which ports',
    );
  });
});

describe('deploy/kubernetes/grafana-dashboard.yaml', () => {
  it('is the dashboard as scripts/build-grafana-configmap.ts writes it, labelled for the Grafana sidecar', () => {
    const text = readFileSync(repoPath('grafana/coherency-dashboard.json'), 'utf8');
    assert.equal(
      readFileSync(`${DIR}/grafana-dashboard.yaml`, 'utf8'),
      buildGrafanaConfigMap(text),
      'out of date: run  node --import tsx scripts/build-grafana-configmap.ts',
    );
    const map = only('ConfigMap', 'grafana-dashboard.yaml');
    assert.equal(map['metadata']['labels']['grafana_dashboard'], '1');
    const provisioned = JSON.parse(map['data']['coherency-dashboard.json']) as Obj;
    const original = JSON.parse(text) as Obj;
    assert.deepEqual(provisioned['panels'], original['panels']);
    assert.equal(provisioned['uid'], original['uid']);
    assert.equal(provisioned['__inputs'], undefined, 'no import input for the sidecar to leave unfilled');
    const ds = (provisioned['templating']['list'] as Obj[]).find((v) => v['type'] === 'datasource');
    assert.equal(ds?.['current'], undefined, "the datasource variable falls to Grafana's default Prometheus");
  });
});

describe('deploy/kubernetes/statefulset-sharded.yaml', () => {
  const set = only('StatefulSet');
  const c = container(set);
  const args: string[] = c['args'];
  const flag = (name: string): string | undefined => args[args.indexOf(name) + 1];

  it('gives each replica its ordinal as shard index and the replica count as shard count', () => {
    assert.equal(flag('--shard-index'), '$(POD_NAME)');
    assert.equal(flag('--shard-count'), String(set['spec']['replicas']));
    const podName = (c['env'] as Obj[]).find((e) => e['name'] === 'POD_NAME');
    assert.deepEqual(podName?.['valueFrom'], { fieldRef: { fieldPath: 'metadata.name' } });
  });

  it('has pod names the exporter accepts as shard indexes, one per shard', () => {
    const replicas: number = set['spec']['replicas'];
    assert.ok(replicas > 1);
    const indexes = Array.from({ length: replicas }, (_, i) => parseShard(`${set['metadata']['name']}-${i}`, flag('--shard-count')));
    assert.deepEqual(
      indexes,
      Array.from({ length: replicas }, (_, i) => ({ index: i, count: replicas })),
    );
  });

  it('is governed by a headless Service', () => {
    const service = MANIFESTS.find((m) => m.doc['kind'] === 'Service' && m.doc['metadata']['name'] === set['spec']['serviceName']);
    assert.ok(service, 'serviceName names a Service in the file');
    assert.equal(service.file, 'statefulset-sharded.yaml');
    assert.equal(service.doc['spec']['clusterIP'], 'None');
  });
});
