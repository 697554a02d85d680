// Wraps the groups of deploy/prometheus/rules.yml (the file promtool checks and tests)
// into deploy/kubernetes/prometheusrule.yaml, so the two cannot drift:
//   node --import tsx scripts/build-prometheus-rule.ts           write the manifest
//   node --import tsx scripts/build-prometheus-rule.ts --check   exit 1 when it is out of date
//   node --import tsx scripts/build-prometheus-rule.ts --runbook-base URL
//       first points every runbook_url of rules.yml and rules.test.yml at URL#<alert>
//       (where you host docs/runbook.md), then writes the manifest
// test/deploy/kubernetes.test.ts checks that the groups are equal.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, isSeq, parseDocument } from 'yaml';
import { writeGenerated } from './writeGenerated.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RULES = 'deploy/prometheus/rules.yml';
const RULE_TESTS = 'deploy/prometheus/rules.test.yml';
const MANIFEST = 'deploy/kubernetes/prometheusrule.yaml';

const RUNBOOK_URL = /(runbook_url: ")([^"#]*)(#[a-z0-9-]+")/g;

/**
 * Points every `runbook_url: "BASE#anchor"` line of a rules or rule-test file at a new base,
 * keeping the anchors. Throws when the base is not an absolute https URL or the text has none.
 */
export function setRunbookBase(text: string, base: string): string {
  const url = new URL(base);
  if (url.protocol !== 'https:' || url.hash !== '' || url.search !== '') {
    throw new Error(`--runbook-base: expected an https URL without ?query or #anchor, got ${base}`);
  }
  let found = 0;
  const out = text.replace(RUNBOOK_URL, (_m, head: string, _old: string, tail: string) => {
    found++;
    return `${head}${url.href}${tail}`;
  });
  if (found === 0) throw new Error('no runbook_url: "BASE#anchor" line found');
  return out;
}

const HEADER = [
  ` Generated from ${RULES} by scripts/build-prometheus-rule.ts; do not edit by hand:`,
  ' change the rules there, then run  node --import tsx scripts/build-prometheus-rule.ts',
  '',
  ' Prometheus Operators often select rules by a label (kube-prometheus-stack:',
  ' release: kube-prometheus-stack); add it to metadata.labels if yours does.',
].join('\n');

/** The PrometheusRule manifest for a rules file's text. Throws when the rules file is unusable. */
export function buildPrometheusRule(rulesText: string): string {
  const rules = parseDocument(rulesText, { prettyErrors: false });
  if (rules.errors.length > 0) throw new Error(`${RULES}: ${rules.errors[0]?.message ?? 'YAML error'}`);
  // The node, not plain data: the comments that explain each rule travel with it.
  const groups = rules.get('groups', true);
  if (!isSeq(groups) || groups.items.length === 0) throw new Error(`${RULES}: has no groups`);

  const doc = new Document({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'coherency-exporter',
      labels: {
        'app.kubernetes.io/name': 'coherency-exporter',
        'app.kubernetes.io/part-of': 'coherency-exporter',
      },
    },
    spec: { groups: [] },
  });
  doc.setIn(['spec', 'groups'], groups);
  doc.commentBefore = HEADER;
  // lineWidth 0: keep PromQL and annotation lines as written, never folded.
  return doc.toString({ lineWidth: 0 });
}

function main(argv: string[]): number {
  const check = argv.includes('--check');
  const baseAt = argv.indexOf('--runbook-base');
  if (baseAt >= 0) {
    const base = argv[baseAt + 1];
    if (!base) throw new Error('--runbook-base needs a URL');
    for (const file of [RULES, RULE_TESTS]) {
      writeFileSync(join(root, file), setRunbookBase(readFileSync(join(root, file), 'utf8'), base));
      process.stdout.write(`runbook_url in ${file} now points at ${base}\n`);
    }
  }
  const built = buildPrometheusRule(readFileSync(join(root, RULES), 'utf8'));
  return writeGenerated(root, MANIFEST, RULES, built, check, 'node --import tsx scripts/build-prometheus-rule.ts');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
