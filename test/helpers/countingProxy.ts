import http from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** One request the proxy forwarded: `GET http://host/path` (absolute URI) or `CONNECT host:port` (a tunnel). */
export interface ProxiedRequest {
  method: string;
  target: string;
  /** The Proxy-Authorization header it carried, if any. */
  auth: string | null;
}

export interface CountingProxy {
  /** http://127.0.0.1:port */
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * A forward proxy on 127.0.0.1 for tests, as a corporate proxy behaves: absolute-URI requests
 * for http targets (forwarded with their body and streamed back) and CONNECT tunnels for https
 * ones. It forwards only to 127.0.0.1 and records every request it forwarded.
 */
export async function startCountingProxy(): Promise<CountingProxy> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const auth = (req: http.IncomingMessage) =>
    typeof req.headers['proxy-authorization'] === 'string' ? req.headers['proxy-authorization'] : null;
  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('not an absolute URI');
      return;
    }
    if (url.hostname !== '127.0.0.1') {
      res.writeHead(403).end('loopback only');
      return;
    }
    requests.push({ method: req.method ?? '', target: url.href, auth: auth(req) });
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request(
      { host: url.hostname, port: Number(url.port), path: `${url.pathname}${url.search}`, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end('upstream failed')));
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    const [host, port] = (req.url ?? '').split(':');
    if (host !== '127.0.0.1') {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    requests.push({ method: 'CONNECT', target: req.url ?? '', auth: auth(req) });
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
