import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEAD_MAX_BYTES, createRunStore, encodeStoredRun, fileNameFor } from '../../src/state/runStore.js';
import { shouldStore } from '../../src/state/runHistory.js';
import type { RunResult } from '../../src/probe/probeTypes.js';
import { captureLogger } from '../helpers/captureLogger.js';
import { countLoopTurns } from '../helpers/loopTurns.js';
import { silentLogger } from '../helpers/testConfig.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'coherency-store-'));
  dirs.push(dir);
  return dir;
}

function run(i: number, verdict: RunResult['verdict'], text = 'x'.repeat(1000)): RunResult {
  return {
    id: `run-${i}`,
    target: 't',
    probe: 'p',
    verdict,
    trigger: 'schedule',
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    durationSeconds: 1,
    samples: [{ verdict, content: text, reasoning: `thinking ${i}`, findings: [], notes: [] } as unknown as RunResult['samples'][number]],
  };
}

const ids = (runs: readonly RunResult[]) => runs.map((r) => r.id);

test('only runs with a fail or error sample are worth storing', () => {
  assert.equal(shouldStore(run(1, 'ok')), false);
  assert.equal(shouldStore(run(1, 'warn')), false);
  assert.equal(shouldStore(run(1, 'fail')), true);
  assert.equal(shouldStore(run(1, 'error')), true);
});

test('file names sort by start time and cannot escape the directory', () => {
  assert.equal(fileNameFor(run(5, 'fail')), '20260101T000005000Z_run-5.json');
  assert.equal(fileNameFor({ ...run(5, 'fail'), id: '../../etc/passwd' }), '20260101T000005000Z_etcpasswd.json');
});

test('a stored file is the head without text on its first line, the text on its second', () => {
  const [head, text, rest] = encodeStoredRun(run(1, 'fail', 'the output')).split('\n');
  assert.equal(rest, '');
  assert.doesNotMatch(head!, /the output|thinking 1/);
  assert.equal(JSON.parse(head!).run.id, 'run-1');
  assert.deepEqual(JSON.parse(text!), { samples: [{ content: 'the output', reasoning: 'thinking 1' }] });
});

test('retention by count and by bytes drops the oldest; heads list newest first, without text; load reads the text', async () => {
  const dir = await tempDir();
  const store = createRunStore({ dir, maxRuns: 5, maxBytes: 1_000_000, logger: silentLogger });
  assert.equal(await store.open(), 0);
  for (let i = 0; i < 8; i++) await store.save(run(i, 'fail'));
  assert.deepEqual(ids(store.heads()), ['run-7', 'run-6', 'run-5', 'run-4', 'run-3']);
  assert.equal(store.heads()[0]!.samples[0]!.content, '', 'a head holds no text');
  assert.equal((await store.load('run-7'))!.samples[0]!.content, 'x'.repeat(1000));
  assert.equal((await store.load('run-7'))!.samples[0]!.reasoning, 'thinking 7');
  assert.equal(await store.load('run-0'), null, 'removed by retention');

  // a new process over the same directory
  const again = createRunStore({ dir, maxRuns: 5, maxBytes: 1_000_000, logger: silentLogger });
  assert.equal(await again.open(), 5);
  assert.deepEqual(ids(again.heads()), ['run-7', 'run-6', 'run-5', 'run-4', 'run-3']);

  const small = createRunStore({ dir, maxRuns: 100, maxBytes: 3000, logger: silentLogger });
  await small.open();
  await small.save(run(9, 'error'));
  assert.deepEqual(ids(small.heads()), ['run-9', 'run-7'], 'only what fits in 3000 bytes stays');
  assert.deepEqual((await readdir(dir)).sort(), [fileNameFor(run(7, 'fail')), fileNameFor(run(9, 'fail'))]);
});

test('unreadable files are logged and skipped; the temp file of an interrupted write is removed', async () => {
  const dir = await tempDir();
  const seed = createRunStore({ dir, maxRuns: 100, maxBytes: 1_000_000, logger: silentLogger });
  await seed.save(run(1, 'fail'));
  await writeFile(join(dir, '20260101T000010000Z_broken.json'), '{not json');
  await writeFile(join(dir, '20260101T000011000Z_shape.json'), JSON.stringify({ id: 'x', samples: [null] }));
  await writeFile(join(dir, '20260101T000012000Z_cut.json.tmp-4242'), '{"id":"half a wri');
  const { logger, text } = captureLogger();
  const store = createRunStore({ dir, maxRuns: 100, maxBytes: 1_000_000, logger });
  assert.equal(await store.open(), 1);
  assert.deepEqual(ids(store.heads()), ['run-1']);
  assert.equal(text().match(/skipping 2 files named like stored runs/g)?.length, 1, 'one line for both');
  assert.equal(
    (await readdir(dir)).some((n) => n.includes('.tmp-')),
    false,
  );
});

test('retention deletes only runs it read: corrupt files are skipped, left in place and not counted', async () => {
  const dir = await tempDir();
  // the five oldest files are corrupt, the five newest are runs
  for (let i = 0; i < 5; i++) await writeFile(join(dir, fileNameFor(run(i, 'fail'))), '{corrupt');
  for (let i = 5; i < 10; i++) await writeFile(join(dir, fileNameFor(run(i, 'fail'))), encodeStoredRun(run(i, 'fail')));
  const { logger, text } = captureLogger();
  const store = createRunStore({ dir, maxRuns: 4, maxBytes: 1_000_000, logger });
  assert.equal(await store.open(), 4);
  assert.deepEqual(ids(store.heads()), ['run-9', 'run-8', 'run-7', 'run-6'], 'retention counted the good runs only');
  assert.equal(text().match(/skipping 5 files named like stored runs/g)?.length, 1, 'one line for all five');
  assert.equal((await readdir(dir)).length, 9, 'the corrupt files stay, the oldest good run went');
});

test('start-up reads heads only: a stored run whose text is corrupt is listed, and opens with its head and a note', async () => {
  const dir = await tempDir();
  const [head] = encodeStoredRun(run(1, 'fail')).split('\n');
  // a first line of 40 KB (more than one read block), then a second line that is not JSON
  const big = { ...run(2, 'fail'), samples: [{ ...run(2, 'fail').samples[0]!, notes: ['n'.repeat(40_000)] }] };
  const [bigHead] = encodeStoredRun(big).split('\n');
  await writeFile(join(dir, fileNameFor(run(1, 'fail'))), `${head}\n{"samples":[{"content":"cut sho`);
  await writeFile(join(dir, fileNameFor(big)), `${bigHead}\nnot json either`);
  const { logger, text } = captureLogger();
  const store = createRunStore({ dir, maxRuns: 5, maxBytes: 1_000_000, logger });
  assert.equal(await store.open(), 2);
  assert.doesNotMatch(text(), /unreadable|could not read/, 'a text line was parsed at start-up');
  assert.equal(store.heads()[0]!.samples[0]!.notes[0]!.length, 40_000);
  // every run /runs lists opens: a damaged text line leaves the head, with a note saying so
  for (const id of ['run-1', 'run-2']) {
    const loaded = await store.load(id);
    assert.ok(loaded, `${id} opens`);
    assert.equal(loaded.samples[0]!.content, '');
    assert.match(loaded.samples[0]!.notes.at(-1)!, /the stored output text could not be read/);
  }
});

test('runs stored by 0.1 (one JSON object) are read once, findings upgraded, and rewritten as head and text', async () => {
  const dir = await tempDir();
  const old = { ...run(1, 'fail'), samples: [{ verdict: 'fail', findings: ['sentence_loop', 'inconclusive'], content: 'old text' }] };
  const file = join(dir, fileNameFor(old as unknown as RunResult));
  await writeFile(file, JSON.stringify(old));
  const store = createRunStore({ dir, maxRuns: 5, maxBytes: 1_000_000, logger: silentLogger });
  assert.equal(await store.open(), 1);
  const findings = store.heads()[0]!.samples[0]!.findings;
  assert.deepEqual(
    findings.map((f) => [f.kind, f.severity, f.atChar, f.channel]),
    [
      ['sentence_loop', 'fail', -1, 'sample'],
      ['inconclusive', 'fail', -1, 'sample'],
    ],
  );
  assert.match(await readFile(file, 'utf8'), /^\{"format":2,/);
  const loaded = await store.load('run-1');
  assert.equal(loaded!.samples[0]!.content, 'old text');
  assert.equal(loaded!.samples[0]!.reasoning, '');
});

test('a storage.dir removed at runtime is made again; a save that fails is reported once per run and retried at the next', async () => {
  const parent = await tempDir();
  const dir = join(parent, 'runs');
  const errors: unknown[] = [];
  const log = captureLogger();
  const store = createRunStore({ dir, maxRuns: 10, maxBytes: 1_000_000, logger: log.logger, onSaveError: (e) => errors.push(e) });
  await store.open();
  await store.save(run(1, 'fail'));
  assert.equal((await readdir(dir)).length, 1);

  await rm(dir, { recursive: true });
  await store.save(run(2, 'fail'));
  assert.deepEqual(await readdir(dir), [fileNameFor(run(2, 'fail'))], 'the directory was made again');
  assert.deepEqual(errors, []);

  // a file where the directory was: the save fails, is reported, and the next one is tried afresh
  await rm(dir, { recursive: true });
  await writeFile(dir, 'not a directory');
  await store.save(run(3, 'fail'));
  assert.equal(errors.length, 1);
  assert.match(log.text(), /could not store run: it is kept in memory only/);
  await rm(dir);
  await store.save(run(4, 'error'));
  assert.equal(errors.length, 1);
  assert.deepEqual(await readdir(dir), [fileNameFor(run(4, 'error'))]);
});

test('indexing at start-up yields to the event loop between batches, and indexed() resolves once every head is read', async () => {
  const dir = await tempDir();
  await Promise.all(
    Array.from({ length: 150 }, (_, i) => writeFile(join(dir, fileNameFor(run(i, 'fail'))), encodeStoredRun(run(i, 'fail')))),
  );
  const store = createRunStore({ dir, maxRuns: 1000, maxBytes: 100_000_000, logger: silentLogger });
  assert.equal(await store.indexed(), 0, 'before open(): nothing to wait for');
  const loop = countLoopTurns();
  const opening = store.open();
  assert.equal(await store.indexed(), 150);
  loop.stop();
  assert.equal(await opening, 150);
  assert.equal(store.heads().length, 150);
  // 150 files in batches of 32: the loop turned at least 4 times while they were read
  assert.ok(loop.turns >= 4, `the event loop turned ${loop.turns} times during indexing`);
});

/** A failing run whose stored file takes about `bytes` bytes. */
const sized = (i: number, bytes: number) => run(i, 'fail', 'y'.repeat(bytes));

test('a run larger than storage.maxBytes is stored without its text; the runs already stored all stay', async () => {
  const dir = await tempDir();
  const outcomes: string[] = [];
  const { logger, text } = captureLogger();
  const store = createRunStore({ dir, maxRuns: 100, maxBytes: 400_000, logger, onOversized: (o) => outcomes.push(o) });
  await store.open();
  for (let i = 0; i < 3; i++) await store.save(sized(i, 125_000));
  await store.save(sized(3, 470_000));
  assert.deepEqual(ids(store.heads()), ['run-3', 'run-2', 'run-1', 'run-0'], 'nothing was deleted to make room');
  assert.deepEqual(outcomes, ['stored_without_text']);
  assert.match(text(), /run stored without its output text: it is larger than storage.maxBytes/);
  const big = (await store.load('run-3'))!;
  assert.equal(big.samples[0]!.content, '');
  assert.match(big.samples[0]!.notes.at(-1)!, /output text not stored: this run takes \d+ bytes, more than storage.maxBytes \(400000\)/);
  assert.equal((await store.load('run-0'))!.samples[0]!.content.length, 125_000);

  // a run whose head alone is over the budget is not stored at all
  const huge = { ...run(4, 'fail'), samples: [{ ...run(4, 'fail').samples[0]!, notes: ['n'.repeat(500_000)] }] };
  await store.save(huge);
  assert.deepEqual(outcomes, ['stored_without_text', 'not_stored']);
  assert.equal(store.heads().length, 4);
  assert.equal((await readdir(dir)).length, 4);
});

test('at start-up a file larger than storage.maxBytes, or with no line break early on, is skipped: the good runs stay', async () => {
  const dir = await tempDir();
  for (let i = 0; i < 3; i++) await writeFile(join(dir, fileNameFor(run(i, 'fail'))), encodeStoredRun(sized(i, 100_000)));
  // named like a stored run: one over the budget, one with no line break in 5 MB
  await writeFile(join(dir, '20260101T000010000Z_stray.json'), Buffer.alloc(450_000, 0x41));
  const { logger, text } = captureLogger();
  const store = createRunStore({ dir, maxRuns: 100, maxBytes: 400_000, logger });
  assert.equal(await store.open(), 3);
  assert.match(text(), /"file":"20260101T000010000Z_stray.json","err":"larger than storage.maxBytes \(450000 bytes\)"/);
  assert.match(text(), /"oversize":1/);
  assert.equal((await readdir(dir)).length, 4, 'nothing deleted');

  const wide = await tempDir();
  await writeFile(join(wide, '20260101T000010000Z_oneline.json'), Buffer.alloc(5 * 1024 * 1024, 0x41));
  await writeFile(join(wide, fileNameFor(run(1, 'fail'))), encodeStoredRun(run(1, 'fail')));
  const log2 = captureLogger();
  const store2 = createRunStore({ dir: wide, maxRuns: 100, maxBytes: 100_000_000, logger: log2.logger });
  assert.equal(await store2.open(), 1);
  assert.match(log2.text(), new RegExp(`no line break in its first ${HEAD_MAX_BYTES} bytes`));
});

test('a save that fails removes its temp file at once', async () => {
  const dir = await tempDir();
  const errors: unknown[] = [];
  const store = createRunStore({ dir, maxRuns: 10, maxBytes: 1_000_000, logger: silentLogger, onSaveError: (e) => errors.push(e) });
  await store.open();
  // a directory where the run's file goes: the rename fails after the temp file was written
  await mkdir(join(dir, fileNameFor(run(1, 'fail')), 'in-the-way'), { recursive: true });
  await store.save(run(1, 'fail'));
  assert.equal(errors.length, 1);
  assert.deepEqual(
    (await readdir(dir)).filter((n) => n.includes('.tmp-')),
    [],
  );
});

test('a stored run with fields of the wrong type is repaired to the shapes the pages read', async () => {
  const dir = await tempDir();
  const bad = run(1, 'fail') as unknown as Record<string, unknown>;
  bad['trigger'] = 7;
  bad['samples'] = [
    {
      verdict: 'fail',
      reasons: 'content: sentence_loop',
      notes: null,
      findings: [{ kind: 'sentence_loop', atChar: 'x' }],
      outputTokens: '12',
      metrics: 'none',
      error: 'boom',
    },
  ];
  await writeFile(join(dir, fileNameFor(run(1, 'fail'))), encodeStoredRun(bad as unknown as RunResult));
  const store = createRunStore({ dir, maxRuns: 10, maxBytes: 1_000_000, logger: silentLogger });
  assert.equal(await store.open(), 1);
  const s = (await store.load('run-1'))!.samples[0]!;
  assert.deepEqual(s.reasons, ['content: sentence_loop']);
  assert.deepEqual(s.notes, []);
  assert.equal(s.findings[0]!.atChar, -1);
  assert.equal(s.outputTokens, 0);
  assert.equal(s.metrics, null);
  assert.deepEqual(s.error, { type: '', message: 'boom' });
});

test('a stored run keeps its fingerprint; a damaged one is repaired or dropped, and a run without one still loads', async () => {
  const dir = await tempDir();
  const fingerprint = {
    server: 'vllm',
    version: '0.6.3',
    model: 'm',
    modelRevision: null,
    systemFingerprint: 'fp_1',
    maxModelLen: 4096,
    ownedBy: null,
    settings: { kv_cache_dtype: 'fp8' },
    headers: { server: 'uvicorn' },
    created: null,
    sources: ['responses', '/version'],
    unavailable: [],
    hash: '0123456789ab',
  };
  const kept = { ...run(1, 'fail'), fingerprint };
  const damaged = { ...run(2, 'fail'), fingerprint: { hash: 'abcdefabcdef', version: 7, headers: 'x', sources: 'responses' } };
  const broken = { ...run(3, 'fail'), fingerprint: 'not a record' };
  for (const r of [kept, damaged, broken, run(4, 'fail')])
    await writeFile(join(dir, fileNameFor(r as RunResult)), encodeStoredRun(r as unknown as RunResult));
  const store = createRunStore({ dir, maxRuns: 10, maxBytes: 1_000_000, logger: silentLogger });
  assert.equal(await store.open(), 4);
  assert.deepEqual((await store.load('run-1'))!.fingerprint, fingerprint);
  const repaired = (await store.load('run-2'))!.fingerprint!;
  assert.equal(repaired.version, null);
  assert.deepEqual(repaired.headers, {});
  assert.deepEqual(repaired.sources, ['responses']);
  assert.equal((await store.load('run-3'))!.fingerprint, undefined);
  assert.equal((await store.load('run-4'))!.fingerprint, undefined);
});

// What another process can put in a shared storage.dir must not stop the daemon (issue 34,
// part 3): a FIFO blocked a plain open for ever, a link to /dev/zero was read to 512 MB. The
// store runs in a child process so that a blocked open fails the test instead of hanging it.
test('only regular files are read: a FIFO, a link to /dev/zero, a directory, a link to a run and an oversize file are skipped, and nothing is deleted', async () => {
  const dir = await tempDir();
  for (let i = 0; i < 3; i++) await writeFile(join(dir, fileNameFor(run(i, 'fail'))), encodeStoredRun(run(i, 'fail')));
  const fifo = spawnSync('mkfifo', [join(dir, '20260101T000010000Z_fifo.json')]);
  assert.equal(fifo.status, 0, String(fifo.stderr));
  await symlink('/dev/zero', join(dir, '20260101T000011000Z_zero.json'));
  await mkdir(join(dir, '20260101T000012000Z_folder.json'));
  await symlink(join(dir, fileNameFor(run(2, 'fail'))), join(dir, '20260101T000013000Z_link.json'));
  await writeFile(join(dir, '20260101T000014000Z_big.json'), Buffer.alloc(200_000, 0x41));
  await symlink('/dev/zero', join(dir, '20260101T000015000Z_cut.json.tmp-77'));
  const before = (await readdir(dir)).sort();
  const storeModule = new URL('../../src/state/runStore.js', import.meta.url).href;
  const script = `
    import { pino } from 'pino';
    import { Writable } from 'node:stream';
    const { createRunStore } = await import(${JSON.stringify(storeModule)});
    const lines = [];
    const sink = new Writable({ write(c, _e, done) { lines.push(String(c)); done(); } });
    const started = performance.now();
    const store = createRunStore({ dir: ${JSON.stringify(dir)}, maxRuns: 2, maxBytes: 100_000, logger: pino({ level: 'info' }, sink) });
    const runs = await store.open();
    const loaded = await store.load('run-2');
    console.log(JSON.stringify({ runs, ms: performance.now() - started, lines, loaded: loaded?.id ?? null, rss: process.memoryUsage().rss }));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { timeout: 10_000, encoding: 'utf8' });
  assert.equal(child.signal, null, `the store did not open within 10 s (${child.signal}): a FIFO or device was opened`);
  assert.equal(child.status, 0, child.stderr);
  const out = JSON.parse(child.stdout) as { runs: number; ms: number; lines: string[]; loaded: string | null; rss: number };
  assert.equal(out.runs, 2, 'the good runs are indexed, retention keeps two');
  assert.equal(out.loaded, 'run-2');
  assert.ok(out.ms < 5000, `open took ${out.ms} ms`);
  assert.ok(out.rss < 200 * 1024 * 1024, `rss ${out.rss}`);
  const skippedLines = out.lines.filter((l) => l.includes('named like stored runs'));
  assert.equal(skippedLines.length, 1, 'one line, with a count, for all that was skipped');
  const logged = JSON.parse(skippedLines[0]!) as Record<string, unknown>;
  assert.equal(logged['skipped'], 5);
  assert.equal(logged['not_regular'], 4);
  assert.equal(logged['oversize'], 1);
  assert.match(skippedLines[0]!, /symbolic link \(not followed in storage.dir\)/);
  assert.match(skippedLines[0]!, /named pipe/);
  // retention deleted only the oldest run it read; every stray, the link to a run and the link
  // named like a temp file are where they were
  const after = (await readdir(dir)).sort();
  assert.deepEqual(
    after,
    before.filter((n) => n !== fileNameFor(run(0, 'fail'))),
  );
  assert.ok((await lstat(join(dir, '20260101T000013000Z_link.json'))).isSymbolicLink());
});

test('a stored run swapped for a FIFO or a link after start-up is not read when asked for', async () => {
  const dir = await tempDir();
  const store = createRunStore({ dir, maxRuns: 10, maxBytes: 100_000, logger: silentLogger });
  await store.open();
  await store.save(run(1, 'fail'));
  await store.save(run(2, 'fail'));
  await rm(join(dir, fileNameFor(run(1, 'fail'))));
  assert.equal(spawnSync('mkfifo', [join(dir, fileNameFor(run(1, 'fail')))]).status, 0);
  await rm(join(dir, fileNameFor(run(2, 'fail'))));
  await symlink('/dev/zero', join(dir, fileNameFor(run(2, 'fail'))));
  const deadline = (ms: number) => new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms).unref());
  for (const id of ['run-1', 'run-2']) {
    const loaded = (await Promise.race([store.load(id), deadline(3000)])) as RunResult;
    assert.equal(loaded.id, id, 'answered with its head');
    assert.match(loaded.samples[0]!.notes.join(' '), /could not be read again \((is a named pipe|is a symbolic link)/);
  }
});

test('a save never writes through a link or into a FIFO put at its temp file name', async () => {
  const dir = await tempDir();
  const outside = join(await tempDir(), 'victim.txt');
  await writeFile(outside, 'untouched');
  const store = createRunStore({ dir, maxRuns: 10, maxBytes: 1_000_000, logger: silentLogger });
  await store.open();
  await symlink(outside, join(dir, `${fileNameFor(run(1, 'fail'))}.tmp-${process.pid}`));
  assert.equal(spawnSync('mkfifo', [join(dir, `${fileNameFor(run(2, 'fail'))}.tmp-${process.pid}`)]).status, 0);
  const deadline = new Promise((_, reject) => setTimeout(() => reject(new Error('a save waited on a FIFO')), 3000).unref());
  await Promise.race([Promise.all([store.save(run(1, 'fail')), store.save(run(2, 'fail'))]), deadline]);
  assert.equal(await readFile(outside, 'utf8'), 'untouched');
  assert.deepEqual(ids(store.heads()), ['run-2', 'run-1']);
  assert.ok((await lstat(join(dir, fileNameFor(run(1, 'fail'))))).isFile());
});
