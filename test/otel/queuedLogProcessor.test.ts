import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LogRecordExporter, ReadWriteLogRecord } from '@opentelemetry/sdk-logs';
import { type ExportCounts, QueuedLogProcessor } from '../../src/otel/queuedLogProcessor.js';

type Reply = 'ok' | 'fail' | 'never' | 'throw';

function exporter(reply: () => Reply): LogRecordExporter & { batches: number[] } {
  const batches: number[] = [];
  return {
    batches,
    export(logs, done) {
      batches.push(logs.length);
      const r = reply();
      if (r === 'throw') throw new Error('boom');
      if (r === 'ok') setImmediate(() => done({ code: 0 }));
      if (r === 'fail') setImmediate(() => done({ code: 1 }));
    },
    shutdown: async () => {},
    forceFlush: async () => {},
  };
}

function counter(): ExportCounts & { seen: Record<string, number> } {
  const seen: Record<string, number> = {};
  const add = (k: string, n: number) => {
    seen[k] = (seen[k] ?? 0) + n;
  };
  return {
    seen,
    exported: (signal, n) => add(`${signal} exported`, n),
    dropped: (signal, reason, n) => add(`${signal} ${reason}`, n),
  };
}

const record = {} as ReadWriteLogRecord;

describe('QueuedLogProcessor', () => {
  it('sends in batches and counts what was accepted', async () => {
    const ex = exporter(() => 'ok');
    const counts = counter();
    const p = new QueuedLogProcessor(ex, { maxQueueSize: 100, maxBatchSize: 4, intervalMs: 10, timeoutMs: 1000 }, counts);
    for (let i = 0; i < 10; i++) p.onEmit(record);
    await p.forceFlush();
    assert.deepEqual(counts.seen, { 'logs exported': 10 });
    assert.ok(ex.batches.every((n) => n <= 4));
    await p.shutdown();
  });

  it('a full queue drops new records at once and counts them', async () => {
    const counts = counter();
    const p = new QueuedLogProcessor(
      exporter(() => 'never'),
      { maxQueueSize: 3, maxBatchSize: 10, intervalMs: 60_000, timeoutMs: 50 },
      counts,
    );
    const t0 = performance.now();
    for (let i = 0; i < 1000; i++) p.onEmit(record);
    assert.ok(performance.now() - t0 < 100, 'onEmit never waits');
    assert.equal(counts.seen['logs queue_full'], 997);
    assert.equal(p.waiting, 3);
    await p.shutdown();
  });

  it('a failed, thrown or unanswered export counts its records as export_failed; shutdown is bounded', async () => {
    for (const reply of ['fail', 'throw', 'never'] as const) {
      const counts = counter();
      const p = new QueuedLogProcessor(
        exporter(() => reply),
        { maxQueueSize: 100, maxBatchSize: 10, intervalMs: 10, timeoutMs: 100 },
        counts,
      );
      for (let i = 0; i < 5; i++) p.onEmit(record);
      const t0 = performance.now();
      await p.shutdown();
      assert.ok(performance.now() - t0 < 1000, `${reply}: shutdown took ${performance.now() - t0} ms`);
      // an unanswered export is cut 100 ms after the timeout; wait for that cut
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(counts.seen['logs export_failed'], 5, reply);
      p.onEmit(record);
      assert.equal(counts.seen['logs queue_full'], 1, `${reply}: nothing is taken after shutdown`);
    }
  });
});
