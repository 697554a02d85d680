import type { HttpExchange, HttpFn } from '../../client/httpExchange.js';
import { joinSecrets, SECRET_HEADER, secretsOf } from '../../client/redactSecrets.js';
import type { ChatMessage, ProbeConfig, TargetConfig } from '../../config/types.js';
import { VERSION } from '../../version.js';
import type { StreamApi } from '../../core/apiChunks.js';
import { adaptToRefusal, apiPath, currentShape, effectiveTimeouts, promptOf, type RequestShape } from '../buildChatRequest.js';
import { responseByteCap } from '../responseByteCap.js';
import type { ProbeDeps } from '../probeDeps.js';
import { readApiCompletion, readApiStream } from './apiAnswers.js';
import { fail, short, skip, type CheckVerdict } from './checkTypes.js';
import { readCompletion, type CompletionAnswer, type StreamAnswer } from './readAnswers.js';

/**
 * What every check is given: the target and probe, a way to send requests to the target (and
 * only there), and the two answers several checks read (a non-streamed completion, a streamed
 * one), each sent once per run however many checks read it.
 */

/** A short question any chat model answers in a sentence. */
export const CHAT_PROMPT = 'In one short sentence, what does a thermometer measure?';
/** Enough prose (about 200 tokens) that a stream has a shape: when its text came, in how many reads. */
export const STREAM_PROMPT = 'Write about 150 words of plain prose on how a bridge carries its load. No lists, no headings.';

export interface Shared<T> {
  exchange: HttpExchange;
  /** null when the answer was not a 2xx JSON body (completion) or not a 2xx answer (stream). */
  answer: T | null;
}

/** What the checks call the parts of an answer, in the words of the target's API. */
export interface ApiWords {
  /** The non-streamed answer: "a chat completion". */
  answer: string;
  /** Where its text is: choices[0].message.content. */
  content: string;
  /** The request field of the token limit. */
  maxTokens: string;
  /** The event that ends a stream. */
  end: string;
}

export const API_WORDS: Readonly<Record<StreamApi, ApiWords>> = {
  chat: { answer: 'a chat completion', content: 'choices[0].message.content', maxTokens: 'max_tokens', end: 'data: [DONE]' },
  completions: { answer: 'a completion', content: 'choices[0].text', maxTokens: 'max_tokens', end: 'data: [DONE]' },
  responses: { answer: 'a response', content: "the message item's output_text", maxTokens: 'max_output_tokens', end: 'response.completed' },
};

/** A check that has no meaning on the target's API, skipped with why. */
export function notInApi(api: StreamApi, why: string): CheckVerdict {
  return skip('not_in_api', `the ${api} API ${why}`, { api });
}

export interface SendOptions {
  method?: 'GET' | 'POST';
  /** After baseUrl: /models, or the API's path (/chat/completions, /completions, /responses). */
  path: '/chat/completions' | '/completions' | '/responses' | '/models';
  body?: Record<string, unknown>;
  stream?: boolean;
  /** Changes the headers as the request is sent (the auth check takes the key out). */
  headers?: (headers: Record<string, string>) => Record<string, string>;
}

export interface CheckContext {
  target: TargetConfig;
  probe: ProbeConfig;
  /** The target's API, the path its requests go to, and its words for the answers' parts. */
  api: StreamApi;
  path: '/chat/completions' | '/completions' | '/responses';
  words: ApiWords;
  /** The target sends a credential: apiKeyEnv or apiKeyFile, or a credential header of its own. */
  hasKey: boolean;
  now: () => number;
  send(options: SendOptions): Promise<HttpExchange>;
  /** A chat request body in the probe's shape (model, token limit, temperature, extraBody), with `extra` over it. */
  chatBody(messages: ChatMessage[], extra?: Record<string, unknown>, maxTokens?: number): Record<string, unknown>;
  /**
   * The same in the target's API: chat's body, a completions body (the messages as its prompt)
   * or a responses body (the messages as input items, max_output_tokens). `stream` adds what the
   * API streams with: include_usage on chat and completions (responses reports usage unasked).
   */
  apiBody(messages: ChatMessage[], stream: boolean, extra?: Record<string, unknown>, maxTokens?: number): Record<string, unknown>;
  completion(): Promise<Shared<CompletionAnswer>>;
  stream(): Promise<Shared<StreamAnswer>>;
  /** The target's `reasoning`, else whether its answers carried reasoning (or <think> in content); null when none came. */
  reasoningModel(): Promise<boolean | null>;
}

/** Header names that carry credentials, the ones redaction treats as secrets: the auth check takes these out. */
export const CREDENTIAL_HEADER = SECRET_HEADER;

const THINK_TAG = /<\/?(think|thinking|reasoning)>/i;

/** `user: text` as a message list. */
export const ask = (text: string): ChatMessage[] => [{ role: 'user', content: text }];

export function createCheckContext(
  target: TargetConfig,
  probe: ProbeConfig,
  deps: ProbeDeps,
  http: HttpFn,
  apiKey: string | null,
  signal: AbortSignal | undefined,
): CheckContext {
  let shape: RequestShape = currentShape(target, deps.shapes?.get(target.name));
  const dispatcher = deps.dispatcherFor?.(target);
  const baseHeaders: Record<string, string> = { 'user-agent': `coherency-exporter/${VERSION}`, ...target.headers };
  if (apiKey) baseHeaders['authorization'] = `Bearer ${apiKey}`;
  // redacted from every answer, also of the requests the auth check sends without them
  const secrets = secretsOf(baseHeaders);

  const api: StreamApi = target.api ?? 'chat';
  const path = apiPath(target) as CheckContext['path'];
  const chatBody = (
    messages: ChatMessage[],
    extra: Record<string, unknown> = {},
    maxTokens = probe.maxTokens,
  ): Record<string, unknown> => ({
    ...probe.extraBody,
    model: target.model,
    messages,
    [shape.maxTokensField]: maxTokens,
    ...(shape.omitTemperature ? {} : { temperature: probe.temperature }),
    ...extra,
  });

  const apiBody = (
    messages: ChatMessage[],
    stream: boolean,
    extra: Record<string, unknown> = {},
    maxTokens = probe.maxTokens,
  ): Record<string, unknown> => {
    const usage = stream && api !== 'responses' ? { stream_options: { include_usage: true } } : {};
    if (api === 'chat') return chatBody(messages, { stream, ...usage, ...extra }, maxTokens);
    return {
      ...probe.extraBody,
      model: target.model,
      ...(api === 'completions'
        ? { prompt: promptOf(messages), max_tokens: maxTokens }
        : { input: messages, max_output_tokens: maxTokens }),
      ...(shape.omitTemperature ? {} : { temperature: probe.temperature }),
      stream,
      ...usage,
      ...extra,
    };
  };

  const exchange = async (o: SendOptions): Promise<HttpExchange> => {
    const headers = { ...baseHeaders, accept: o.stream ? 'text/event-stream' : 'application/json' };
    // and every other secret of the configuration: a shared origin can echo another target's key
    const others = (await deps.secrets?.()) ?? [];
    return http(
      {
        method: o.method ?? (o.body ? 'POST' : 'GET'),
        url: `${target.baseUrl}${o.path}`,
        headers: o.headers ? o.headers(headers) : headers,
        ...(o.body ? { body: o.body } : {}),
      },
      {
        timeouts: effectiveTimeouts(target, probe),
        maxBytes: responseByteCap(probe),
        secrets: joinSecrets(secrets, others),
        ...(signal ? { signal } : {}),
        ...(dispatcher ? { dispatcher } : {}),
      },
    );
  };

  // A server that refuses a request field by name (max_tokens, temperature) gets the request again
  // in the shape it asks for, once, as the generation probe does; the shape is kept for later runs.
  const send = async (o: SendOptions): Promise<HttpExchange> => {
    let x = await exchange(o);
    if (x.status === 400 && o.body && o.path !== '/models') {
      const adapted = adaptToRefusal(`HTTP 400: ${x.body.slice(0, 2000)}`, shape, target, probe);
      if (adapted) {
        const field = shape.maxTokensField;
        shape = adapted.shape;
        deps.shapes?.set(target.name, shape);
        const body = { ...o.body };
        if (field !== shape.maxTokensField && field in body) {
          body[shape.maxTokensField] = body[field];
          delete body[field];
        }
        if (shape.omitTemperature) delete body['temperature'];
        x = await exchange({ ...o, body });
      }
    }
    return x;
  };

  let completion: Promise<Shared<CompletionAnswer>> | null = null;
  let stream: Promise<Shared<StreamAnswer>> | null = null;
  const ctx: CheckContext = {
    target,
    probe,
    api,
    path,
    words: API_WORDS[api],
    hasKey: apiKey !== null || Object.keys(target.headers).some((h) => CREDENTIAL_HEADER.test(h)),
    now: deps.now,
    send,
    chatBody,
    apiBody,
    completion: () =>
      (completion ??= send({ path, body: apiBody(ask(CHAT_PROMPT), false) }).then((x) => ({
        exchange: x,
        answer: ok(x) ? readApiCompletion(api, x.body) : null,
      }))),
    stream: () =>
      (stream ??= send({ path, stream: true, body: apiBody(ask(STREAM_PROMPT), true) }).then((x) => ({
        exchange: x,
        answer: x.status !== null && x.status >= 200 && x.status < 300 ? readApiStream(api, x.pieces) : null,
      }))),
    async reasoningModel() {
      if (target.reasoning !== null) return target.reasoning;
      const [c, s] = [await ctx.completion(), await ctx.stream()];
      if (!c.answer && !s.answer) return null;
      const content = typeof c.answer?.content === 'string' ? c.answer.content : '';
      return (
        (c.answer?.reasoning.fields.length ?? 0) > 0 ||
        (s.answer?.reasoningFields.length ?? 0) > 0 ||
        THINK_TAG.test(content) ||
        THINK_TAG.test(s.answer?.content ?? '')
      );
    },
  };
  return ctx;
}

const ok = (x: HttpExchange) => x.status !== null && x.status >= 200 && x.status < 300 && x.error === null;

/**
 * Why an answer cannot be judged, as a failed check, or null when it can: no answer at all
 * (no_response), an HTTP status other than 2xx (http_status), a body that broke off or is not
 * what was asked for (bad_body). `cutIsOk`: a stream cut short is judged by its check (no [DONE]).
 */
export function answerProblem(x: HttpExchange, what: string, options: { json?: boolean; cutIsOk?: boolean } = {}): CheckVerdict | null {
  const timing = { seconds: Math.round(x.endedAtMs) / 1000 };
  if (x.status === null) {
    const e = x.error ?? { type: 'connect', message: 'no answer' };
    return fail('no_response', `no answer to ${what}: ${e.type}: ${short(e.message, 200)}`, { error: e.type, ...timing });
  }
  if (x.status < 200 || x.status >= 300)
    return fail('http_status', `${what} was answered with HTTP ${x.status}: ${short(x.body, 160) || 'no body'}`, { status: x.status });
  if (x.error && !(options.cutIsOk && x.error.type === 'truncated'))
    return fail('bad_body', `the answer to ${what} broke off: ${x.error.type}: ${short(x.error.message, 160)}`, {
      status: x.status,
      error: x.error.type,
      ...timing,
    });
  if (options.json && readCompletion(x.body) === null)
    return fail('bad_body', `the answer to ${what} is not a JSON object (${x.contentType || 'no content-type'}): ${short(x.body, 120)}`, {
      status: x.status,
      contentType: x.contentType || null,
    });
  return null;
}

/** The model names an answer may give: the one asked for, a configured alias, or a dated snapshot of it (gpt-4o → gpt-4o-2024-08-06). */
export function modelMatches(answered: string, target: Pick<TargetConfig, 'model' | 'modelAliases'>): boolean {
  if (answered === target.model || target.modelAliases.includes(answered)) return true;
  const escaped = target.model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped}-(\\d{4}-\\d{2}-\\d{2}|\\d{8}|\\d{4})$`).test(answered);
}
