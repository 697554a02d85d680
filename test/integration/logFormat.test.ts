// Logs an operator reads (issue 9, item 6): with --log-level warn a failing and an erroring
// sample each leave a line; JSON lines carry ISO times; --log-format pretty goes through
// pino-pretty; a bad format is a usage error.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { demoConfig } from '../helpers/demoConfig.js';
import {
  ensureBuilt,
  fetchText,
  RUN_PROBE,
  freePort,
  makeTempDir,
  parseExposition,
  runCommand,
  CLI,
  startServe,
  waitFor,
  waitReady,
  type Child,
} from '../helpers/integrationProcess.js';

function configYaml(simUrl: string, deadUrl: string): string {
  return `targets:
  - name: collapse
    baseUrl: ${simUrl}
    model: collapse-sentence@300
  - name: down
    baseUrl: ${deadUrl}
    model: healthy
    timeouts: { connectSeconds: 2, idleSeconds: 5, totalSeconds: 10 }
probes:
  - name: short
    prompt: Write a detailed technical article about building a reliable job scheduler.
    maxTokens: 1200
    minTokens: 200
    schedule: "0 0 1 1 *"
    runOnStart: false
`;
}

interface LogLine {
  level: number;
  time: string;
  msg: string;
  target?: string;
  verdict?: string;
  error?: string;
}

const jsonLines = (out: string): LogLine[] =>
  out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as LogLine);

describe('serve logs', { timeout: 60_000 }, () => {
  let sim: Simulator | undefined;
  const tmp = makeTempDir('logformat');
  let file = '';
  let deadUrl = '';
  const children: Child[] = [];

  before(async () => {
    ensureBuilt();
    sim = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 0 });
    deadUrl = `http://127.0.0.1:${await freePort()}/v1`; // nothing listens there: a connect error
    file = join(tmp.dir, 'log.yaml');
    writeFileSync(file, configYaml(sim.url, deadUrl));
  });

  after(async () => {
    for (const c of children) await c.stop(2000);
    await sim?.close();
    tmp.remove();
  });

  it('--log-level warn --log-format json: a failing sample logs at warn, an erroring one at error, nothing at info; times are ISO', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const serve = startServe(['--config', file, '--port', String(port), '--log-level', 'warn', '--log-format', 'json']);
    children.push(serve);
    await waitReady(serve, base);
    assert.equal((await fetchText(`${base}/probe?target=collapse&probe=short`, 30_000, RUN_PROBE)).status, 200);
    assert.equal((await fetchText(`${base}/probe?target=down&probe=short`, 30_000, RUN_PROBE)).status, 200);
    const lines = await waitFor('two sample lines', () => {
      const ls = jsonLines(serve.stdout()).filter((l) => l.msg === 'sample finished');
      return ls.length >= 2 ? ls : undefined;
    });
    const fail = lines.find((l) => l.target === 'collapse');
    const error = lines.find((l) => l.target === 'down');
    assert.equal(fail?.level, 40, JSON.stringify(fail));
    assert.equal(fail?.verdict, 'fail');
    assert.equal(error?.level, 50, JSON.stringify(error));
    assert.equal(error?.verdict, 'error');
    assert.equal(error?.error, 'connect');
    // the JSON line keeps its shape: the pretty format folds these fields, JSON never does
    assert.deepEqual(Object.keys(fail ?? {}).sort(), [
      'durationSeconds',
      'findings',
      'level',
      'msg',
      'name',
      'outputTokens',
      'probe',
      'reasons',
      'run',
      'sample',
      'target',
      'time',
      'verdict',
    ]);
    for (const l of jsonLines(serve.stdout())) {
      assert.ok(l.level >= 40, `an info line passed --log-level warn: ${JSON.stringify(l)}`);
      assert.match(l.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'time is ISO-8601 UTC');
    }
  });

  it('--log-format pretty writes readable lines through pino-pretty, not JSON', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const serve = startServe(['--config', file, '--port', String(port), '--log-format', 'pretty'], { LOG_LEVEL: 'info' });
    children.push(serve);
    await waitReady(serve, base);
    const out = await waitFor('the start-up line', () => (serve.stdout().includes('config from') ? serve.stdout() : undefined));
    const line = out.split('\n').find((l) => l.includes('config from')) ?? '';
    assert.doesNotMatch(line, /^\s*\{/, 'not a JSON line');
    assert.match(line, /INFO/);
    assert.match(line, /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} [+-]\d{4}\]/, `local time with its offset: ${line}`);
    assert.doesNotMatch(out, /\u001b\[/, 'no colour codes when stdout is not a terminal');
  });

  it('the demo in pretty format at info: one line per sample with a link to its run, none per page request', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const demo = join(tmp.dir, 'demo.yaml');
    const fast = { short: '*/2 * * * * *', long: '*/3 * * * * *', sweep: '*/3 * * * * *', 'on-topic': '*/2 * * * * *' };
    writeFileSync(demo, demoConfig({ simulatorPort: await freePort(), tokensPerSecond: 0, schedules: fast }));
    const serve = startServe(['--config', demo, '--port', String(port), '--log-format', 'pretty'], { LOG_LEVEL: 'info' });
    children.push(serve);
    await waitReady(serve, base);
    const samplesSoFar = async () => {
      let n = 0;
      for (const s of parseExposition((await fetchText(`${base}/metrics`)).body))
        if (s.name === 'coherency_probe_samples_total') n += s.value;
      return n;
    };
    await waitFor('20 samples', async () => (await samplesSoFar()) >= 20, { timeoutMs: 30_000, intervalMs: 500 });
    for (const path of ['/', '/runs', '/runs?verdict=fail', '/metrics', '/-/healthy', '/favicon.ico']) {
      await fetch(`${base}${path}`, { headers: { accept: 'text/html' } }).then((r) => r.arrayBuffer());
    }
    await serve.stop(5000);
    const lines = serve
      .stdout()
      .split('\n')
      .filter((l) => l.trim() !== '');
    const sampleLines = lines.filter((l) =>
      / (ok|warn|fail|error)(: [^(]+)? \(.*\) http:\/\/127\.0\.0\.1:\d+\/runs\/[0-9a-f-]{36}$/.test(l),
    );
    assert.ok(sampleLines.length >= 20, `${sampleLines.length} sample lines:\n${lines.slice(0, 20).join('\n')}`);
    assert.match(
      sampleLines.find((l) => l.includes('sim-collapse/')) ?? '',
      /WARN: sim-collapse\/(short|long) #0 fail: sentence_loop from token \d+ \(\d+ tokens, [\d.]+ s\) http:/,
    );
    // every line is one line: start-up, samples, the early closes of collapsed streams, stopping
    const perSample = lines.length / sampleLines.length;
    assert.ok(perSample <= 5, `${lines.length} lines for ${sampleLines.length} samples`);
    assert.ok(perSample < 2, `${perSample.toFixed(2)} lines per sample`);
    assert.deepEqual(
      lines.filter((l) => /INFO: .*(GET|POST) \/|incoming request|request completed/.test(l)),
      [],
      'no page request at info',
    );
    assert.ok(
      lines.some((l) => /WARN: GET \/favicon\.ico 404/.test(l)),
      'a 404 is a warning',
    );
  });

  it('a bad --log-format or LOG_FORMAT is a usage error that names the value', async () => {
    const r = await runCommand(process.execPath, [CLI, 'serve', '--config', file, '--log-format', 'xml'], { timeoutMs: 15_000 });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /log format "xml".*json or pretty/);
  });
});
