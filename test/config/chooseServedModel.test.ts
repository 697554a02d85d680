import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseServedModel, LISTED_MODELS_MAX, modelIdsOf } from '../../src/config/chooseServedModel.js';
import { targetNameOfUrl } from '../../src/config/targetNameOfUrl.js';

const URL_ = 'http://h/v1/models';
const ok = (body: unknown) => ({ status: 200, body: JSON.stringify(body), error: null });
const list = (...ids: string[]) => ok({ object: 'list', data: ids.map((id) => ({ id, object: 'model' })) });
const failed = (r: ReturnType<typeof chooseServedModel>) => (r.ok ? assert.fail(`chose ${r.model}`) : r.message);

describe('chooseServedModel', () => {
  it('one model: that one, with a note saying where it came from', () => {
    assert.deepEqual(chooseServedModel(list('Qwen/Qwen2.5-7B-Instruct'), URL_), {
      ok: true,
      model: 'Qwen/Qwen2.5-7B-Instruct',
      note: `the only one ${URL_} lists`,
    });
  });

  it('several: lists them, says to set OPENAI_MODEL with the first as an example, and mentions --demo', () => {
    const m = failed(chooseServedModel(list('a-model', 'b model', 'c'), URL_));
    assert.match(m, /^OPENAI_MODEL: is not set, and http:\/\/h\/v1\/models lists 3 models:\n {4}a-model\n {4}b model\n {4}c\n/);
    assert.match(m, /Set OPENAI_MODEL \(or COHERENCY_MODEL\) to the one to probe, e\.g\. OPENAI_MODEL=a-model;/);
    assert.match(m, /--demo/);
    const quoted = failed(chooseServedModel(list("it's", 'x'), URL_));
    assert.match(quoted, /OPENAI_MODEL='it'\\''s'/);
  });

  it('a long list: the first LISTED_MODELS_MAX and a count of the rest', () => {
    const ids = Array.from({ length: LISTED_MODELS_MAX + 5 }, (_, i) => `m${i}`);
    const m = failed(chooseServedModel(list(...ids), URL_));
    assert.match(m, new RegExp(`lists ${ids.length} models`));
    assert.match(m, /\n {4}… and 5 more\n/);
    assert.doesNotMatch(m, new RegExp(`m${LISTED_MODELS_MAX}\\n`));
  });

  it('none, not a list, an HTTP error, no answer: says what happened, what to set and --demo', () => {
    const cases: [Parameters<typeof chooseServedModel>[0], RegExp][] = [
      [list(), /lists no models/],
      [ok({ models: [] }), /did not answer with a list of models/],
      [{ status: 200, body: '<html>', error: null }, /did not answer with a list of models/],
      [{ status: 401, body: '', error: null }, /answered HTTP 401 \(is the API key right\?\)/],
      [{ status: 404, body: '', error: null }, /answered HTTP 404\./],
      [
        { status: null, body: '', error: 'connect: ECONNREFUSED before an answer' },
        /could not be read from http:\/\/h\/v1\/models: connect: ECONNREFUSED/,
      ],
      [{ status: 200, body: '{"data":[', error: 'too_large: the answer passed 1048576 bytes' }, /could not be read .*too_large/],
    ];
    for (const [answer, why] of cases) {
      const m = failed(chooseServedModel(answer, URL_));
      assert.match(m, /^OPENAI_MODEL: is not set, and /, m);
      assert.match(m, why, m);
      assert.match(m, /Set OPENAI_MODEL \(or COHERENCY_MODEL\).*--demo/, m);
    }
  });

  it('unreachable: no answer or an HTTP error (a target error), not a list that picks none', () => {
    const unreachable = (a: Parameters<typeof chooseServedModel>[0]) => {
      const r = chooseServedModel(a, URL_);
      return r.ok ? null : r.unreachable;
    };
    assert.equal(unreachable({ status: null, body: '', error: 'connect: refused' }), true);
    assert.equal(unreachable({ status: 503, body: '', error: null }), true);
    assert.equal(unreachable(list('a', 'b')), false);
    assert.equal(unreachable(list()), false);
  });

  it('in the words of the command that asks: the probe command names its flag', () => {
    const m = failed(
      chooseServedModel(list('a', 'b'), URL_, {
        missing: '--model: not given',
        give: 'Pass --model',
        example: (id) => `--model ${id}`,
        tryWithout: 'try it on the demo with --config config/coherency.yaml',
      }),
    );
    assert.match(m, /^--model: not given, and http:\/\/h\/v1\/models lists 2 models:/);
    assert.match(m, /Pass --model to the one to probe, e\.g\. --model a; try it on the demo/);
  });

  it('shows ids with their control characters escaped (a server chose them)', () => {
    const m = failed(chooseServedModel(list('a\u001b[2Jb', 'c\u202ed'), URL_));
    assert.match(m, /a\\u001b\[2Jb/);
    assert.match(m, /c\\u202ed/);
    assert.doesNotMatch(m, /[\u001b\u202e]/);
  });
});

describe('modelIdsOf', () => {
  it('the ids of the data list, without duplicates, empty and non-string ids', () => {
    assert.deepEqual(modelIdsOf(JSON.stringify({ data: [{ id: 'a' }, { id: 'a' }, { id: '' }, { id: 3 }, null, { id: 'b' }] })), [
      'a',
      'b',
    ]);
    assert.equal(modelIdsOf('[]'), null);
    assert.equal(modelIdsOf('null'), null);
  });
});

describe('targetNameOfUrl', () => {
  it('the host as a valid name; the fallback when there is none', () => {
    assert.equal(targetNameOfUrl('https://llm.staging.example/v1', 'x'), 'llm-staging-example');
    assert.equal(targetNameOfUrl('http://127.0.0.1:8000/v1', 'x'), '127-0-0-1');
    assert.equal(targetNameOfUrl(`https://${'a'.repeat(62)}.b/v1`, 'x'), 'a'.repeat(62));
    assert.equal(targetNameOfUrl('not a url', 'openai'), 'openai');
    assert.equal(targetNameOfUrl('localhost:8000', 'openai'), 'openai');
    for (const url of ['http://xn--bcher-kva.example/v1', 'http://a..b/v1', 'https://-a-.example']) {
      assert.match(targetNameOfUrl(url, 'x'), /^[a-z0-9_-]+$/, url);
    }
  });
});
