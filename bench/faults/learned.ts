import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { freePort, stopChild } from '../childProcess.js';
import { upstreamOf } from './judgedOutputs.js';
import { type Case, CLI, check, closeServer, runCases, serveDaemon, startServer } from './shared.js';

/**
 * Issue 37 part 2 from outside: the learned verdict chosen per probe and by `analyze`, and model
 * files that are not models. A daemon (child process) judges the same two outputs under
 * `verdict: rules` and `verdict: learned`: a program ending in a short "!?" run (a soft fail the
 * model scores low: a warning under learned) and a string of unrelated words (no rule fails it,
 * the model does: a `learned` fail, counted under that kind in /metrics). Model files that are
 * too large, not JSON, or fitted on other features are refused by `analyze` and `check-config`,
 * naming the flag or key, the file and what is wrong. About 10 s.
 */

const TOKEN = 'learned-bench-token-0123456789';

const PROGRAM = `package main

import (
	"fmt"
	"os"
	"strings"
)

// countWords prints how many words each file named on the command line holds.
func countWords(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", path, err)
	}
	return len(strings.Fields(string(data))), nil
}

func main() {
	for _, path := range os.Args[1:] {
		n, err := countWords(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%8d %s\\n", n, path)
	}
}
`;

/** What each upstream path answers, written for this bench. */
const OUTPUTS: Record<string, string> = {
  soft: `${PROGRAM}\n${'!?'.repeat(40)}`,
  salad:
    'Here is a short guide to keeping a kitchen herb garden healthy through the winter months.\n\n' +
    'window basil frost grammar lantern seven quietly orbit the mint purple taxes under sideways honey collapses remember '.repeat(3) +
    'parsley oven bright gravel whisper thirty nor elegant pigeon compile soup harbor fragile ankle tomorrow'.repeat(2),
};

interface Sample {
  verdict: string;
  reasons?: string[];
  error?: { type: string; message: string } | null;
}

/** A GET (or POST) with the bearer token on a fresh connection, bounded; the body as text. */
function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${TOKEN}` }, agent: false, timeout: 30_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within 30 s`)));
    req.on('error', reject);
    req.end();
  });
}

function cli(args: string[]): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}`.trim() };
}

export async function learnedCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const modelFile = new URL('../../../src/core/verdictModel.json', import.meta.url);
  const model = JSON.parse(readFileSync(modelFile, 'utf8')) as { features: string[] };
  const files = {
    big: join(root, 'learned-big.json'),
    notJson: join(root, 'learned-not-json.json'),
    otherFeatures: join(root, 'learned-other-features.json'),
    text: join(root, 'learned-soft.txt'),
  };
  writeFileSync(files.big, `{"pad": "${'x'.repeat(2 * 1024 * 1024)}"}`);
  writeFileSync(files.notJson, 'version: 1\nweights: [1, 2]\n');
  writeFileSync(files.otherFeatures, JSON.stringify({ ...model, features: ['text.renamed', ...model.features.slice(1)] }));
  writeFileSync(files.text, OUTPUTS['soft']!);

  const configWith = (name: string, model: string) => {
    const path = join(root, `learned-${name}.yaml`);
    writeFileSync(
      path,
      `targets: [{ name: t, baseUrl: "http://127.0.0.1:9/v1", model: m }]\nprobes: [{ name: p, prompt: hi, maxTokens: 10, verdict: learned, verdictModel: ${JSON.stringify(model)} }]\n`,
    );
    return path;
  };

  const cliCases: Case[] = [
    [
      'analyze --verdict learned: a soft fail the model scores low -> warn (exit 0), the rules alone fail it (exit 1)',
      async () => {
        const rules = cli(['analyze', files.text]);
        const learned = cli(['analyze', '--verdict', 'learned', files.text]);
        check(rules.code === 1, `rules: exit ${rules.code}`);
        check(learned.code === 0 && /verdict WARN/.test(learned.out), `learned: exit ${learned.code}: ${learned.out.slice(0, 200)}`);
        const p = /probability (\d\.\d{3})/.exec(learned.out)?.[1];
        return `rules exit 1, learned exit 0 (WARN, probability ${p})`;
      },
    ],
    ...(
      [
        ['a 2 MB file', files.big, /more than the 1048576 bytes read at most|is \d+ bytes, more than/],
        ['YAML, not JSON', files.notJson, /not JSON/],
        [
          'a model fitted on other features',
          files.otherFeatures,
          /feature 0 is text\.renamed, this analyzer computes base\.chars there: retrain/,
        ],
        ['a directory', root, /is a directory/],
      ] as const
    ).map(
      ([what, file, message]): Case => [
        `analyze --verdict-model: ${what} -> exit 2 naming the flag, the file and why`,
        async () => {
          const r = cli(['analyze', '--verdict-model', file, files.text]);
          check(r.code === 2, `exit ${r.code}: ${r.out.slice(0, 200)}`);
          check(r.out.includes(`--verdict-model ${file}`) && message.test(r.out), `said: ${r.out.slice(0, 240)}`);
          return r.out.replace(root, '$TMP').slice(0, 140);
        },
      ],
    ),
    ...(
      [
        ['a model fitted on other features', files.otherFeatures, /retrain/],
        ['a 2 MB file', files.big, /bytes/],
      ] as const
    ).map(
      ([what, file, message]): Case => [
        `check-config: probes[].verdictModel ${what} -> exit 2 naming the key and the file`,
        async () => {
          const r = cli(['check-config', configWith(what.replace(/\W+/g, '-'), file)]);
          check(r.code === 2, `exit ${r.code}: ${r.out.slice(0, 200)}`);
          check(r.out.includes('probes[0].verdictModel') && r.out.includes(file) && message.test(r.out), `said: ${r.out.slice(0, 240)}`);
          return (/probes\[0\]\.verdictModel.*/.exec(r.out)?.[0] ?? '').replace(root, '$TMP').slice(0, 140);
        },
      ],
    ),
  ];
  await runCases(cliCases, results);

  const up = await startServer(upstreamOf(OUTPUTS));
  const port = await freePort();
  const configPath = join(root, 'learned.yaml');
  const targets = Object.keys(OUTPUTS)
    .map((name) => `  - { name: ${name}, baseUrl: "http://127.0.0.1:${up.port}/${name}/v1", model: m }`)
    .join('\n');
  writeFileSync(
    configPath,
    `server: { host: 127.0.0.1, port: ${port}, authToken: ${TOKEN} }
targets:
${targets}
probes:
  - { name: rules, prompt: "Answer briefly.", maxTokens: 400 }
  - { name: learned, prompt: "Answer briefly.", maxTokens: 400, verdict: learned }
`,
  );
  const daemon = await serveDaemon(configPath, port);
  const judged = async (target: string, probe: string): Promise<Sample> => {
    const r = await get(`${daemon.url}/probe?target=${target}&probe=${probe}`);
    check(r.status === 200, `HTTP ${r.status}: ${r.body.slice(0, 160)}`);
    const s = (JSON.parse(r.body) as { samples: Sample[] }).samples[0];
    check(s !== undefined && !s.error, `${target}/${probe}: ${s?.error ? `${s.error.type}: ${s.error.message}` : 'no sample'}`);
    return s!;
  };
  const expect = (target: string, probe: string, want: string, what: string, reason?: RegExp): Case => [
    `daemon, verdict: ${probe}: ${what} -> ${want}`,
    async () => {
      const s = await judged(target, probe);
      const first = s.reasons?.[0] ?? '';
      check(s.verdict === want, `${s.verdict}: ${first.slice(0, 160)}`);
      if (reason) check(reason.test(s.reasons?.join('\n') ?? ''), `reasons: ${(s.reasons ?? []).join(' | ').slice(0, 200)}`);
      return `${s.verdict}${first ? `: ${first.slice(0, 110)}` : ''}`;
    },
  ];
  const cases: Case[] = [
    expect('soft', 'rules', 'fail', 'a program ending in 40 "!?"', /punctuation_flood/),
    expect('soft', 'learned', 'warn', 'the same program', /a warning under the learned verdict/),
    expect('salad', 'rules', 'ok', 'unrelated words, no rule fails them'),
    expect(
      'salad',
      'learned',
      'fail',
      'the same words',
      /learned: the learned model gives a probability of degeneration of 0\.\d+, at or above/,
    ),
    [
      'daemon: /metrics counts the words\' learned fail under kind="learned"',
      async () => {
        const r = await get(`${daemon.url}/metrics`);
        const line = r.body
          .split('\n')
          .find((l) => l.startsWith('coherency_degeneration_reasons_total{target="salad",probe="learned",kind="learned"}'));
        check(line !== undefined && / 1$/.test(line), `no learned series: ${line ?? 'none'}`);
        return line!;
      },
    ],
  ];
  try {
    await runCases(cases, results);
  } finally {
    await stopChild(daemon.child);
    await closeServer(up);
  }
}
