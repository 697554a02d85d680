/**
 * The demo config (config/coherency.yaml, what `npm start` runs) as integration tests use it:
 * the simulator moved to a free port (the targets follow it), and optionally faster schedules,
 * a streaming rate and a metrics.detail, so a test sees in seconds what the demo shows in a minute.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSeq, parseDocument } from 'yaml';
import { repoRoot } from './repoRoot.js';

export const DEMO_CONFIG = join(repoRoot(), 'config', 'coherency.yaml');

export interface DemoChanges {
  /** Where the simulator listens instead of its shipped port. */
  simulatorPort?: number;
  /** Every probe's schedule, by probe name (a probe not named keeps its own). */
  schedules?: Readonly<Record<string, string>>;
  tokensPerSecond?: number;
  detail?: 'basic' | 'full';
}

/** The demo config's text with the changes applied (comments kept). */
export function demoConfig(changes: DemoChanges = {}, text: string = readFileSync(DEMO_CONFIG, 'utf8')): string {
  const doc = parseDocument(text);
  if (changes.simulatorPort !== undefined) {
    const from = Number(doc.getIn(['simulator', 'port']));
    doc.setIn(['simulator', 'port'], changes.simulatorPort);
    const targets = doc.get('targets');
    for (let i = 0; i < (isSeq(targets) ? targets.items.length : 0); i++) {
      const url = String(doc.getIn(['targets', i, 'baseUrl']));
      doc.setIn(['targets', i, 'baseUrl'], url.replace(`:${from}/`, `:${changes.simulatorPort}/`));
    }
  }
  if (changes.tokensPerSecond !== undefined) doc.setIn(['simulator', 'tokensPerSecond'], changes.tokensPerSecond);
  if (changes.detail !== undefined) doc.setIn(['metrics', 'detail'], changes.detail);
  const probes = doc.get('probes');
  for (let i = 0; i < (isSeq(probes) ? probes.items.length : 0); i++) {
    const schedule = changes.schedules?.[String(doc.getIn(['probes', i, 'name']))];
    if (schedule !== undefined) doc.setIn(['probes', i, 'schedule'], schedule);
  }
  return doc.toString();
}

/** The demo's target and probe names, in file order. */
export function demoNames(text: string = readFileSync(DEMO_CONFIG, 'utf8')): { targets: string[]; probes: string[] } {
  const doc = parseDocument(text).toJS() as { targets: { name: string }[]; probes: { name: string }[] };
  return { targets: doc.targets.map((t) => t.name), probes: doc.probes.map((p) => p.name) };
}
