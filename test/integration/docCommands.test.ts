// Issue 39, "Done when": every command README and docs show runs as written. Each
// `npx coherency-exporter …` of README.md, docs/ and the Kubernetes guide is read by the command
// line's own parser: a command line as typed must parse strictly; a synopsis (`[--json]`,
// `FILE`, `…`) must name a command and only flags that command has. The simulator walk-through
// of docs/baselines.md is run as written (its port and file made free ones).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseCommandLine } from '../../src/cli.js';
import { spawn } from 'node:child_process';
import { childEnv, ensureBuilt, freePort, makeTempDir, ROOT } from '../helpers/integrationProcess.js';

/**
 * Runs a shell script in a process group of its own, from the checkout (where npx finds the
 * command), and ends the group once the script exits: what it left in the background (the
 * simulator) holds its output open otherwise.
 */
function runScript(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', script], {
      cwd: ROOT,
      detached: true,
      env: childEnv({ ...process.env, npm_config_offline: 'true' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    const group = () => {
      try {
        process.kill(-(child.pid as number), 'SIGTERM');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(group, 100_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      group();
      // what was written before the exit is read before the pipes close
      setTimeout(() => resolve({ code, stdout, stderr }), 200);
    });
  });
}

const DOCS = ['README.md', 'deploy/kubernetes/README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);
const PREFIX = 'npx coherency-exporter';

/** Every `npx coherency-exporter …` of a Markdown text: inline code up to its backtick, a code line up to a comment, continuations joined. */
export function docCommands(markdown: string): string[] {
  const found: string[] = [];
  let fenced = false;
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i] as string;
    if (line.trimStart().startsWith('```')) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1).trimEnd()} ${(lines[++i] as string).trim()}`;
      const at = line.indexOf(PREFIX);
      if (at >= 0)
        found.push(
          line
            .slice(at)
            .replace(/\s#\s.*$/, '')
            .replace(/&.*$/, '')
            .trim(),
        );
      continue;
    }
    for (const m of line.matchAll(/`(npx coherency-exporter[^`]*)`/g)) found.push((m[1] as string).trim());
  }
  return found;
}

/** Words of a command line as a shell splits them (quotes kept out, no expansion). */
function words(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? (m[3] as string));
}

/** A synopsis, not a line to type: optional parts, alternatives, placeholders. */
const isSynopsis = (command: string) => /[[\]|(…]|\.\.\.|<\w+>|\b[A-Z]{2,}\b(?!_)/.test(command.replace(/"\$\w+"|\$\w+/g, ''));

describe('the commands README and the docs show', () => {
  const all = DOCS.flatMap((file) => docCommands(readFileSync(join(ROOT, file), 'utf8')).map((command) => ({ file, command })));

  it('are many, and each names a command and only flags it has; a line to type parses as typed', () => {
    assert.ok(all.length >= 20, `found ${all.length} commands`);
    const problems: string[] = [];
    for (const { file, command } of all) {
      const argv = words(command).slice(2);
      if (isSynopsis(command)) {
        const named = argv.find((w) => !w.startsWith('-')) ?? 'serve';
        // "npx coherency-exporter <command>", "…": any command, none named
        if (/^<\w+>$|…|\.\.\./.test(named)) continue;
        const line = parseCommandLine([named, '--help']);
        if (line.kind !== 'commandHelp') {
          problems.push(`${file}: ${command}: no command "${named}"`);
          continue;
        }
        for (const flag of argv.flatMap((w) => /^--([a-z][a-z-]*)/.exec(w)?.[1] ?? [])) {
          if (!(flag in line.command.options) && flag !== 'help') problems.push(`${file}: ${command}: ${named} has no --${flag}`);
        }
        continue;
      }
      const line = parseCommandLine(argv);
      if (line.kind === 'error') problems.push(`${file}: ${command}: ${line.message.trim()}`);
    }
    assert.deepEqual(problems, []);
  });

  it('a synopsis with a flag the command lacks is caught (the check can fail)', () => {
    const line = parseCommandLine(['probe', '--help']);
    assert.equal(line.kind, 'commandHelp');
    assert.ok(line.kind === 'commandHelp' && !('no-such-flag' in line.command.options));
    assert.equal(parseCommandLine(['probe', '--no-such-flag']).kind, 'error');
    assert.deepEqual(
      docCommands('run `npx coherency-exporter probe --save x` and\n```sh\nnpx coherency-exporter analyze a \\\n  --json   # note\n```\n'),
      ['npx coherency-exporter probe --save x', 'npx coherency-exporter analyze a --json'],
    );
  });

  it("docs/baselines.md's walk-through on the simulator runs as written: the baseline saved, the degraded build exits 1", {
    timeout: 120_000,
  }, async () => {
    ensureBuilt();
    const text = readFileSync(join(ROOT, 'docs/baselines.md'), 'utf8');
    const block = /## Trying it on the simulator[\s\S]*?```sh\n([\s\S]*?)```/.exec(text)?.[1];
    assert.ok(block, 'docs/baselines.md has its walk-through');
    const tmp = makeTempDir('doc-commands');
    try {
      const port = String(await freePort());
      const script = `${block.replaceAll('8089', port).replaceAll('/tmp/baseline.json', join(tmp.dir, 'baseline.json'))}\nexit $?\n`;
      const r = await runScript(script);
      assert.ok(existsSync(join(tmp.dir, 'baseline.json')), `no baseline saved:\n${r.stdout}\n${r.stderr}`);
      assert.equal(r.code, 1, `the degraded build's gate exits 1:\n${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /WORSE/);
    } finally {
      tmp.remove();
    }
  });
});
