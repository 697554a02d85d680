import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorBody } from './chunks.js';
import { buildSource, splitBuildPath } from './builds.js';
import { RENAMED_MODEL, splitDefectPath, type Defects } from './defects.js';
import { hashSeed } from '../prose/random.js';
import { createReleaseSwitch } from './release.js';
import { respondBody, respondCompletion, streamGeneration, type ResponseContext } from './respond.js';
import { lookupScenario, SCENARIO_MAP } from './scenarios/index.js';
import { lastUserText, messageTexts } from './messageTexts.js';
import { tokenize } from '../prose/tokenize.js';
import { stopAt } from './tokenSource.js';
import { offeredTools, planToolCalls, toolCallSource, type OfferedTool } from './toolCalls.js';
import { chatFieldsOf, type SimulatedApi } from './apiEncoders.js';
import type { SimulatedRequest, Simulator, SimulatorOptions } from './types.js';

/** Requests kept in `Simulator.requests`; older ones are dropped first. */
export const REQUEST_LOG_LIMIT = 200;
/** Request bodies above this are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** max_tokens when the request names none. */
export const DEFAULT_MAX_TOKENS = 4096;
/** The simulator's "context length": a non-streamed answer is built in memory, so bound it. */
export const MAX_MAX_TOKENS = 1_000_000;

interface ChatBody {
  model: string;
  messages: unknown[];
  maxTokens: number;
  stream: boolean;
  includeUsage: boolean;
  seed: number | null;
  /** null when the request sent none. */
  temperature: number | null;
  /** The request asked for per-token logprobs. */
  logprobs: boolean;
  /** Stop sequences (`stop`, a string or up to 4). */
  stop: string[];
  /** Function tools offered (null: none, or tool_choice "none"). */
  tools: OfferedTool[] | null;
}

/** The APIs served, by path: chat, and for base models and typed events completions and responses. */
const API_PATHS: Readonly<Record<string, SimulatedApi>> = {
  '/v1/chat/completions': 'chat',
  '/v1/completions': 'completions',
  '/v1/responses': 'responses',
};

/** OpenAI's limit on stop sequences. */
const MAX_STOPS = 4;

/**
 * Starts the built-in OpenAI-compatible server. The model name picks the scenario
 * (`GET /v1/models` lists them); see SCENARIOS.
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const host = options.host ?? '127.0.0.1';
  const tokensPerSecond = options.tokensPerSecond ?? 0;
  const apiKey = options.apiKey ?? null;
  if (apiKey !== null && apiKey.trim() === '') throw new RangeError('apiKey must not be empty');
  const unknown = (options.listedModels ?? []).filter((m) => !SCENARIO_MAP.has(m));
  if (unknown.length > 0) throw new RangeError(`listedModels: no scenario named ${unknown.join(', ')}`);
  const baseSeed = options.seed ?? 1;
  if (!Number.isFinite(tokensPerSecond) || tokensPerSecond < 0) {
    throw new RangeError(`tokensPerSecond must be a number >= 0, got ${tokensPerSecond}`);
  }

  const release = options.release ? createReleaseSwitch(options.release) : null;
  const requests: SimulatedRequest[] = [];
  // requests answered by a build: what a build that is not repeatable (jitter) varies with
  let builtRequests = 0;
  // what echo-previous answers with: the last user message of each scenario's previous request
  const lastUserByScenario = new Map<string, string>();
  const active = new Set<() => void>();
  let closing: Promise<void> | null = null;

  const track = (abort: () => void): (() => void) => {
    if (closing) {
      // Arrived while closing: end it at once rather than leave it open.
      queueMicrotask(abort);
      return () => {};
    }
    active.add(abort);
    return () => active.delete(abort);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendError(res, 500, errorBody('Simulator failure.', 'server_error', 'internal_error'));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const built = splitBuildPath((req.url ?? '/').split('?')[0] ?? '/');
    if (!built.ok) {
      req.resume();
      return sendError(res, 404, errorBody(built.message, 'invalid_request_error', 'not_found'));
    }
    const split = splitDefectPath(built.path);
    if (!split.ok) {
      req.resume();
      return sendError(res, 404, errorBody(split.message, 'invalid_request_error', 'not_found'));
    }
    const { path, defects } = split;
    if (apiKey !== null && !defects.has('auth-open') && !keyMatches(req.headers.authorization, apiKey)) {
      req.resume();
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendError(res, 401, errorBody('Incorrect API key provided (simulated).', 'invalid_request_error', 'invalid_api_key'));
    }
    if (release) res.setHeader('Server', release.current().server);
    if (req.method === 'GET' && path === '/v1/models') {
      req.resume();
      return listModels(res, release?.current().root ?? null, options.listedModels ?? null);
    }
    if (release && req.method === 'GET' && path === '/version') {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return void res.end(JSON.stringify({ version: release.current().version }));
    }
    const api = Object.hasOwn(API_PATHS, path) ? API_PATHS[path] : undefined;
    if (req.method !== 'POST' || api === undefined) {
      req.resume();
      return sendError(res, 404, errorBody(`No route for ${req.method} ${path}.`, 'invalid_request_error', 'not_found'));
    }

    const raw = await readBody(req);
    if (raw === null) {
      res.setHeader('Connection', 'close');
      return sendError(res, 413, errorBody(`Request body over ${MAX_BODY_BYTES} bytes.`, 'invalid_request_error', 'body_too_large'), () =>
        req.destroy(),
      );
    }
    const parsed = parseChatBody(raw, defects, api);
    if (typeof parsed === 'string') return sendError(res, 400, errorBody(parsed, 'invalid_request_error', 'invalid_request'));

    const served = release?.serve(parsed.model) ?? null;
    if (served) res.setHeader('Server', served.identity.server);
    const lookup = lookupScenario(served?.model ?? parsed.model);
    if (!lookup.ok) {
      const status = lookup.reason === 'unknown' ? 404 : 400;
      const code = lookup.reason === 'unknown' ? 'model_not_found' : 'invalid_model_parameter';
      return sendError(res, status, errorBody(lookup.message, 'invalid_request_error', code, 'model'));
    }

    const seed = hashSeed(baseSeed, parsed.seed, JSON.stringify(parsed.messages));
    const messages = messageTexts(parsed.messages);
    const previousLastUser = lastUserByScenario.get(lookup.definition.name) ?? null;
    lastUserByScenario.set(lookup.definition.name, lastUserText(messages));
    let plan = lookup.definition.run({
      maxTokens: parsed.maxTokens,
      param: lookup.param,
      seed,
      temperature: parsed.temperature,
      messages,
      previousLastUser,
    });
    if (plan.kind === 'generation') {
      // offered tools are called instead of writing text, as a model that follows the prompt does
      if (parsed.tools)
        plan = { ...plan, source: toolCallSource(planToolCalls(parsed.tools, lastUserText(messages), seed)), naturalFinish: 'tool_calls' };
      if (built.build) plan = { ...plan, source: buildSource(built.build, plan.source, seed, builtRequests++) };
      plan = { ...plan, source: stopAt(plan.source, parsed.stop) };
    }
    const model = defects.has('model-renamed') ? RENAMED_MODEL : parsed.model;
    const identity = {
      id: `${api === 'chat' ? 'chatcmpl-' : api === 'completions' ? 'cmpl-' : 'resp_'}${randomUUID().replace(/-/g, '')}`,
      created: Math.floor(Date.now() / 1000),
      model,
      ...(served ? { systemFingerprint: served.identity.systemFingerprint } : {}),
    };
    const record: SimulatedRequest = {
      id: identity.id,
      model: parsed.model,
      scenario: lookup.definition.name,
      maxTokens: parsed.maxTokens,
      stream: parsed.stream,
      temperature: parsed.temperature,
      logprobs: parsed.logprobs,
      status: 0,
      tokensSent: 0,
      clientClosedAtToken: null,
      finished: false,
      ...(api !== 'chat' ? { api } : {}),
    };
    requests.push(record);
    if (requests.length > REQUEST_LOG_LIMIT) requests.splice(0, requests.length - REQUEST_LOG_LIMIT);

    const context: ResponseContext = {
      res,
      record,
      identity,
      tokensPerSecond: tokensPerSecond * (served?.speedup ?? 1),
      includeUsage: parsed.includeUsage && !defects.has('usage-missing'),
      logprobs: parsed.logprobs,
      promptTokens: countPromptTokens(parsed.messages),
      track,
      defects,
      ...(api !== 'chat' ? { api } : {}),
    };
    if (plan.kind === 'body') respondBody(plan, context);
    else if (parsed.stream && !plan.ignoreStream) streamGeneration(plan, context);
    else respondCompletion(plan, context);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}/v1`,
    port,
    requests,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const abort of [...active]) abort();
        active.clear();
        // Idle keep-alive sockets would otherwise hold close() for seconds.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function listModels(res: ServerResponse, root: string | null, listed: readonly string[] | null): void {
  const created = Math.floor(Date.now() / 1000);
  const scenarios = [...SCENARIO_MAP.values()].filter((s) => listed === null || listed.includes(s.name));
  const data = scenarios.map((scenario) => ({
    id: scenario.name,
    object: 'model',
    created,
    owned_by: 'coherency-simulator',
    ...(root ? { root } : {}),
    description: scenario.description,
  }));
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ object: 'list', data }));
}

function sendError(res: ServerResponse, status: number, body: string, done?: () => void): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(body, done);
}

/** The body as text, or null once it passes MAX_BODY_BYTES. */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
      req.pause();
      return resolve(null);
    }
    const parts: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (part: Buffer) => {
      if (over) return;
      size += part.length;
      if (size > MAX_BODY_BYTES) {
        over = true;
        req.pause();
        resolve(null);
        return;
      }
      parts.push(part);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(parts).toString('utf8'));
    });
    req.on('error', reject);
  });
}

/** Whether an Authorization header carries exactly `Bearer <key>` (compared in constant time). */
function keyMatches(header: string | undefined, key: string): boolean {
  const given = Buffer.from(header ?? '', 'utf8');
  const wanted = Buffer.from(`Bearer ${key}`, 'utf8');
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** `stop` as a list; a string is the 400 message. */
function stopSequences(v: unknown): string[] | string {
  if (v === undefined || v === null) return [];
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.length > MAX_STOPS || !list.every((s) => typeof s === 'string' && s !== ''))
    return `\`stop\` must be a non-empty string or a list of up to ${MAX_STOPS} of them.`;
  return list as string[];
}

/** The fields the simulator reads, checked, with the request's defects applied; a string is the 400 message. */
function parseChatBody(raw: string, defects: Defects, api: SimulatedApi): ChatBody | string {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return 'The request body is not valid JSON.';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'The request body must be a JSON object.';
  // completions and responses requests are read in chat's names (apiEncoders.ts)
  const fields = chatFieldsOf(api, body as Record<string, unknown>);
  if (typeof fields === 'string') return fields;
  if (typeof fields.model !== 'string' || fields.model.length === 0) return '`model` is required and must be a string.';
  if (!Array.isArray(fields.messages)) return '`messages` is required and must be an array.';
  const max = fields.max_tokens ?? fields.max_completion_tokens;
  if (max !== undefined && max !== null && !(Number.isInteger(max) && (max as number) >= 1)) {
    return '`max_tokens` must be a positive integer.';
  }
  if (typeof max === 'number' && max > MAX_MAX_TOKENS) return `\`max_tokens\` must be at most ${MAX_MAX_TOKENS}.`;
  if (fields.stream !== undefined && fields.stream !== null && typeof fields.stream !== 'boolean') return '`stream` must be a boolean.';
  const streamOptions = fields.stream_options;
  const includeUsage =
    typeof streamOptions === 'object' && streamOptions !== null && (streamOptions as Record<string, unknown>).include_usage === true;
  const stop = stopSequences(fields.stop);
  if (typeof stop === 'string') return stop;
  const tools = offeredTools(fields);
  if (typeof tools === 'string') return tools;
  return {
    model: fields.model,
    messages: fields.messages,
    maxTokens: typeof max === 'number' && !defects.has('max-tokens-ignored') ? max : DEFAULT_MAX_TOKENS,
    stop: defects.has('stop-ignored') ? [] : stop,
    tools,
    stream: fields.stream === true,
    includeUsage,
    seed: typeof fields.seed === 'number' && Number.isFinite(fields.seed) ? fields.seed : null,
    temperature: typeof fields.temperature === 'number' && Number.isFinite(fields.temperature) ? fields.temperature : null,
    logprobs: fields.logprobs === true,
  };
}

/** Roughly what a chat template adds: the text's tokens plus a few per message. */
function countPromptTokens(messages: unknown[]): number {
  let total = 3;
  for (const message of messages) {
    total += 4;
    const content = (message as { content?: unknown } | null)?.content;
    if (typeof content === 'string') total += tokenize(content).length;
    else if (Array.isArray(content)) {
      for (const part of content) {
        const text = (part as { text?: unknown } | null)?.text;
        if (typeof text === 'string') total += tokenize(text).length;
      }
    }
  }
  return total;
}
