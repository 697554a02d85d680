// SignalGate: signals during start-up are held and applied once the daemon is up.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { releaseEarlySignals, SignalGate, type EarlySignals } from '../src/signalGate.js';

function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  const proc = {
    on: (s: string, f: (s: NodeJS.Signals) => void) => emitter.on(s, f),
    off: (s: string, f: (s: NodeJS.Signals) => void) => emitter.off(s, f),
    exit: (code?: number) => void exits.push(code ?? 0),
  } as unknown as Pick<NodeJS.Process, 'on' | 'off' | 'exit'>;
  return { proc, exits, send: (s: NodeJS.Signals) => emitter.emit(s, s), count: (s: string) => emitter.listenerCount(s) };
}

function targets() {
  const calls: string[] = [];
  return { calls, t: { stop: async () => void calls.push('stop'), reload: async () => void calls.push('reload') } };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('SignalGate', () => {
  it('holds SIGHUPs during start-up and reloads once after it', async () => {
    const p = fakeProcess();
    const gate = new SignalGate(p.proc);
    p.send('SIGHUP');
    p.send('SIGHUP');
    const { calls, t } = targets();
    gate.attach(t);
    await tick();
    assert.deepEqual(calls, ['reload']);
    p.send('SIGHUP');
    await tick();
    assert.deepEqual(calls, ['reload', 'reload']);
    assert.deepEqual(p.exits, []);
    gate.dispose();
    assert.equal(p.count('SIGHUP'), 0);
  });

  it('applies a SIGTERM from start-up once the daemon is up, and exits 0 after the stop', async () => {
    const p = fakeProcess();
    const gate = new SignalGate(p.proc);
    p.send('SIGTERM');
    p.send('SIGHUP');
    const { calls, t } = targets();
    gate.attach(t);
    await tick();
    assert.deepEqual(calls, ['stop'], 'stop wins over a held reload');
    assert.deepEqual(p.exits, [0]);
  });

  it('exits at once on a second stop signal', async () => {
    const p = fakeProcess();
    const gate = new SignalGate(p.proc);
    gate.attach({ stop: () => new Promise(() => {}), reload: async () => {} });
    p.send('SIGINT');
    assert.deepEqual(p.exits, []);
    p.send('SIGTERM');
    assert.deepEqual(p.exits, [1]);
    gate.dispose();
  });

  it('takes over the signals recorded by the launcher', async () => {
    const p = fakeProcess();
    const early: EarlySignals = { signals: [], handler: (s) => early.signals.push(s) };
    for (const s of ['SIGHUP', 'SIGTERM', 'SIGINT']) p.proc.on(s as NodeJS.Signals, early.handler);
    p.send('SIGHUP');
    const gate = new SignalGate(p.proc, early);
    assert.equal(p.count('SIGHUP'), 1, "the launcher's recorder is removed");
    const { calls, t } = targets();
    gate.attach(t);
    await tick();
    assert.deepEqual(calls, ['reload']);
    gate.dispose();
  });

  it('hands signals back to node for short commands, with the exit status of a recorded stop', () => {
    const p = fakeProcess();
    const early: EarlySignals = { signals: [], handler: (s) => early.signals.push(s) };
    for (const s of ['SIGHUP', 'SIGTERM', 'SIGINT']) p.proc.on(s as NodeJS.Signals, early.handler);
    assert.equal(releaseEarlySignals(early, p.proc), null);
    assert.equal(p.count('SIGTERM'), 0);
    assert.equal(releaseEarlySignals({ signals: ['SIGHUP', 'SIGINT'], handler: () => {} }, p.proc), 130);
    assert.equal(releaseEarlySignals({ signals: ['SIGTERM'], handler: () => {} }, p.proc), 143);
  });
});

describe('SignalGate without reloads (simulate)', () => {
  it('handles the stop signals only, leaving SIGHUP to node', async () => {
    const p = fakeProcess();
    const gate = new SignalGate(p.proc, undefined, { reloads: false });
    assert.equal(p.count('SIGHUP'), 0);
    assert.equal(p.count('SIGTERM'), 1);
    const { calls, t } = targets();
    gate.attach(t);
    p.send('SIGTERM');
    await tick();
    assert.deepEqual(calls, ['stop']);
    assert.deepEqual(p.exits, [0]);
    gate.dispose();
    assert.equal(p.count('SIGTERM'), 0);
  });
});
