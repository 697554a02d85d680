import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeProxy, readProxyEnv, redactProxyUrl } from '../../src/client/proxyEnv.js';

describe('readProxyEnv', () => {
  it('no proxy variable: no proxy', () => {
    assert.deepEqual(readProxyEnv({}), { ok: true, proxy: null });
    assert.deepEqual(readProxyEnv({ HTTP_PROXY: ' ', NO_PROXY: 'example.com' }), { ok: true, proxy: null });
  });

  it('reads HTTP_PROXY, HTTPS_PROXY and NO_PROXY; the lowercase variable wins, as in curl and undici', () => {
    assert.deepEqual(
      readProxyEnv({
        HTTP_PROXY: 'http://upper:3128',
        http_proxy: 'http://lower:3128',
        HTTPS_PROXY: 'http://tls:3129',
        no_proxy: 'localhost,.corp',
      }),
      {
        ok: true,
        proxy: { httpProxy: 'http://lower:3128/', httpsProxy: 'http://tls:3129/', noProxy: 'localhost,.corp' },
      },
    );
    assert.deepEqual(readProxyEnv({ HTTPS_PROXY: 'https://tls:3129' }), {
      ok: true,
      proxy: { httpProxy: null, httpsProxy: 'https://tls:3129/', noProxy: '' },
    });
  });

  it('host:port without a scheme is an http proxy, as curl reads it', () => {
    const r = readProxyEnv({ HTTPS_PROXY: 'proxy.corp:3128' });
    assert.deepEqual(r, { ok: true, proxy: { httpProxy: null, httpsProxy: 'http://proxy.corp:3128/', noProxy: '' } });
  });

  it('NO_PROXY=* turns the proxy off', () => {
    assert.deepEqual(readProxyEnv({ HTTP_PROXY: 'http://p:1', NO_PROXY: '*' }), { ok: true, proxy: null });
  });

  it('refuses what is not an http(s) proxy URL, naming the variable and never the password', () => {
    const r = readProxyEnv({ HTTP_PROXY: 'http://user:s3cret-pw@[bad', https_proxy: 'socks5://p:1080' });
    assert.equal(r.ok, false);
    const error = r.ok ? '' : r.error;
    assert.match(error, /^HTTP_PROXY: "http:\/\/\[redacted\]@\[bad" is not a URL/);
    assert.match(error, /https_proxy: socks5 proxies are not supported/);
    assert.doesNotMatch(error, /s3cret/);
  });
});

describe('redactProxyUrl and describeProxy', () => {
  it('replaces the credentials of a proxy URL, and only them', () => {
    assert.equal(redactProxyUrl('http://alice:s3cret@proxy.corp:3128/'), 'http://[redacted]@proxy.corp:3128/');
    assert.equal(redactProxyUrl('alice:s3cret@proxy.corp:3128'), '[redacted]@proxy.corp:3128');
    assert.equal(redactProxyUrl('http://proxy.corp:3128/a@b'), 'http://proxy.corp:3128/a@b');
  });

  it('says which proxy each scheme uses: https falls back to HTTP_PROXY', () => {
    assert.deepEqual(describeProxy({ httpProxy: 'http://u:pw@p:1/', httpsProxy: null, noProxy: 'h' }), {
      httpProxy: 'http://[redacted]@p:1/',
      httpsProxy: 'http://[redacted]@p:1/',
      noProxy: 'h',
    });
  });
});
