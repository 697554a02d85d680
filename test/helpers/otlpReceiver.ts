import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** How the receiver answers: accept (200 {}), fail (500), or never answer (a black hole). */
export type ReceiverMode = 'accept' | 'fail' | 'blackhole';

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };

/** One log record as the receiver decoded it: its event name, severity and attributes as plain values. */
export interface ReceivedEvent {
  eventName: string | undefined;
  severityText: string | undefined;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
}

/** One metric as decoded: name, unit, and its data points' attributes, counts and bucket bounds. */
export interface ReceivedMetric {
  name: string;
  unit: string;
  points: { attributes: Record<string, string | number | boolean>; count: number; bounds: number[] }[];
}

export interface OtlpReceiver {
  /** http://127.0.0.1:port, the base the export appends /v1/logs and /v1/metrics to. */
  url: string;
  mode: ReceiverMode;
  /** Every body received, as text (for the no-secret test). */
  bodies: string[];
  /** Header sets of every request. */
  headers: IncomingMessage['headers'][];
  events(): ReceivedEvent[];
  metrics(): ReceivedMetric[];
  close(): Promise<void>;
}

function plain(v: AnyValue): string | number | boolean {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  return JSON.stringify(v);
}

function attrs(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, plain(kv.value)]));
}

/**
 * A loopback OTLP/HTTP receiver of the JSON protocol: POST /v1/logs and /v1/metrics, bodies
 * decoded (gzip undone), and answered as `mode` says. Listens on 127.0.0.1 only.
 */
export async function startOtlpReceiver(mode: ReceiverMode = 'accept'): Promise<OtlpReceiver> {
  const logs: unknown[] = [];
  const metrics: unknown[] = [];
  const bodies: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const sockets = new Set<Socket>();
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let raw = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
      const text = raw.toString('utf8');
      bodies.push(text);
      headers.push(req.headers);
      if (receiver.mode === 'blackhole') {
        held.push(res); // never answered
        return;
      }
      if (receiver.mode === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"code":13,"message":"down"}');
        return;
      }
      const body = JSON.parse(text);
      if (req.url === '/v1/logs') logs.push(body);
      else if (req.url === '/v1/metrics') metrics.push(body);
      else {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: OtlpReceiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    mode,
    bodies,
    headers,
    events() {
      const out: ReceivedEvent[] = [];
      for (const body of logs as {
        resourceLogs: { resource?: { attributes?: KeyValue[] }; scopeLogs: { logRecords: Record<string, unknown>[] }[] }[];
      }[])
        for (const rl of body.resourceLogs)
          for (const sl of rl.scopeLogs)
            for (const r of sl.logRecords)
              out.push({
                eventName: r['eventName'] as string | undefined,
                severityText: r['severityText'] as string | undefined,
                attributes: attrs(r['attributes'] as KeyValue[]),
                resource: attrs(rl.resource?.attributes),
              });
      return out;
    },
    metrics() {
      const out: ReceivedMetric[] = [];
      type Point = { attributes?: KeyValue[]; count?: string | number; explicitBounds?: number[] };
      type Metric = { name: string; unit?: string; histogram?: { dataPoints: Point[] } };
      for (const body of metrics as { resourceMetrics: { scopeMetrics: { metrics: Metric[] }[] }[] }[])
        for (const rm of body.resourceMetrics)
          for (const sm of rm.scopeMetrics)
            for (const m of sm.metrics)
              out.push({
                name: m.name,
                unit: m.unit ?? '',
                points: (m.histogram?.dataPoints ?? []).map((p) => ({
                  attributes: attrs(p.attributes),
                  count: Number(p.count ?? 0),
                  bounds: p.explicitBounds ?? [],
                })),
              });
      return out;
    },
    async close() {
      for (const res of held) res.destroy();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}
