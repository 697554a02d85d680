import type { ChatRequest, StreamTimeouts } from '../client/streamTypes.js';
import type { ProbeConfig, TargetConfig } from '../config/types.js';
import { VERSION } from '../version.js';
import { keyProblem } from './readKeyFile.js';

/**
 * The key to send for a target: its apiKeyEnv variable, or its apiKeyFile read now (so a
 * rotated secret is picked up at the next run). Throws an error whose message names the
 * problem and where the key came from, never the key.
 */
export async function apiKeyOf(
  target: TargetConfig,
  env: Record<string, string | undefined>,
  readKeyFile?: (path: string) => Promise<string>,
): Promise<string | null> {
  let key: string | null = null;
  let from = '';
  if (target.apiKeyEnv) {
    key = env[target.apiKeyEnv] || null;
    from = `apiKeyEnv ${target.apiKeyEnv}`;
  } else if (target.apiKeyFile) {
    if (!readKeyFile) throw new Error('no key file reader configured');
    let text: string;
    try {
      text = await readKeyFile(target.apiKeyFile);
    } catch (err) {
      // The message of a read error holds only the path; its code says enough.
      const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      throw new Error(`cannot read the API key file of target ${target.name}: ${why}`);
    }
    // Files made with `kubectl create secret --from-file` end with a newline.
    key = text.trim();
    if (!key) throw new Error(`the API key file of target ${target.name} is empty`);
    from = 'apiKeyFile';
  }
  if (key === null) return null;
  const problem = keyProblem(key);
  if (problem) throw new Error(`the API key of target ${target.name} (${from}) ${problem}: it cannot be sent in an HTTP header`);
  return key;
}

/** How a target's requests are shaped: pinned in its config, or learned from its refusals. */
export interface RequestShape {
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  omitTemperature: boolean;
}

export function shapeOf(target: Pick<TargetConfig, 'maxTokensField' | 'omit'>): RequestShape {
  return { maxTokensField: target.maxTokensField ?? 'max_tokens', omitTemperature: target.omit.includes('temperature') };
}

/** The shape to send now: what the server asked for earlier (`learned`), with what the target pins in its config on top. */
export function currentShape(target: Pick<TargetConfig, 'maxTokensField' | 'omit'>, learned: RequestShape | undefined): RequestShape {
  const pinned = shapeOf(target);
  if (!learned) return pinned;
  return {
    maxTokensField: target.maxTokensField ?? learned.maxTokensField,
    omitTemperature: pinned.omitTemperature || learned.omitTemperature,
  };
}

/**
 * The shape a refusal (HTTP 400) asks for, and a note for the sample, or null when it names
 * nothing the daemon may change. OpenAI's reasoning models answer "Unsupported parameter:
 * 'max_tokens' ... Use 'max_completion_tokens' instead." and "Unsupported value:
 * 'temperature' does not support 0.6 with this model. Only the default (1) value is supported."
 * A field the target pins in its config is never changed. max_completion_tokens is chat's only:
 * a completions or responses target's token limit keeps its own name.
 */
export function adaptToRefusal(
  message: string,
  shape: RequestShape,
  target: Pick<TargetConfig, 'maxTokensField'> & Partial<Pick<TargetConfig, 'api'>>,
  probe: Pick<ProbeConfig, 'temperature'>,
): { shape: RequestShape; note: string } | null {
  if (!/^HTTP 400\b/.test(message)) return null;
  if (
    shape.maxTokensField === 'max_tokens' &&
    target.maxTokensField === null &&
    (target.api ?? 'chat') === 'chat' &&
    /max_tokens/.test(message) &&
    /max_completion_tokens|unsupported parameter/i.test(message)
  ) {
    return {
      shape: { ...shape, maxTokensField: 'max_completion_tokens' },
      note: 'max_tokens refused: the token limit is sent as max_completion_tokens',
    };
  }
  if (!shape.omitTemperature && /temperature/.test(message) && /unsupported|not support|only the default|must be 1/i.test(message)) {
    return {
      shape: { ...shape, omitTemperature: true },
      note: `temperature ${probe.temperature} refused: sampled at the server's default temperature`,
    };
  }
  return null;
}

export function buildChatRequest(
  target: TargetConfig,
  probe: ProbeConfig,
  apiKey: string | null,
  shape: RequestShape = shapeOf(target),
): ChatRequest {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'user-agent': `coherency-exporter/${VERSION}`,
    ...target.headers,
  };
  if (apiKey) headers['authorization'] = `Bearer ${apiKey}`;
  if (target.api === 'completions' || target.api === 'responses') return otherApiRequest(target, probe, headers, shape);
  return {
    url: `${target.baseUrl}/chat/completions`,
    headers,
    body: {
      ...probe.extraBody,
      model: target.model,
      messages: probe.messages,
      [shape.maxTokensField]: probe.maxTokens,
      ...(shape.omitTemperature ? {} : { temperature: probe.temperature }),
      stream: true,
      stream_options: { include_usage: true },
      // per-token logprobs (OpenAI, vLLM, SGLang, llama.cpp); a server that ignores it sends none
      ...(probe.logprobs ? { logprobs: true } : {}),
    },
  };
}

/**
 * The prompt of a completions request. A base model has no chat template, so the messages are
 * written out as plain text: a lone user message is sent as it is; otherwise the system
 * messages come first, then each turn as "User: ..." or "Assistant: ...", and the prompt ends
 * with "Assistant:" for the model to go on from.
 */
export function promptOf(messages: readonly ProbeConfig['messages'][number][]): string {
  const turns = messages.filter((m) => m.role !== 'system');
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
  if (system.length === 0 && turns.length === 1 && turns[0]?.role === 'user') return turns[0].content;
  const lines = turns.map((m) => `${m.role === 'user' ? 'User' : 'Assistant'}: ${m.content}`);
  return [...system, ...lines, 'Assistant:'].join('\n\n');
}

/**
 * A completions or responses request: the same probe in that API's fields. Completions has
 * only max_tokens (max_completion_tokens is chat's); responses takes max_output_tokens, the
 * messages as input items, and reports usage on its last event without being asked.
 */
function otherApiRequest(target: TargetConfig, probe: ProbeConfig, headers: Record<string, string>, shape: RequestShape): ChatRequest {
  const temperature = shape.omitTemperature ? {} : { temperature: probe.temperature };
  if (target.api === 'completions')
    return {
      url: `${target.baseUrl}/completions`,
      headers,
      api: 'completions',
      body: {
        ...probe.extraBody,
        model: target.model,
        prompt: promptOf(probe.messages),
        max_tokens: probe.maxTokens,
        ...temperature,
        stream: true,
        stream_options: { include_usage: true },
        // the log probability of each sampled token (token_logprobs)
        ...(probe.logprobs ? { logprobs: 1 } : {}),
      },
    };
  return {
    url: `${target.baseUrl}/responses`,
    headers,
    api: 'responses',
    body: {
      ...probe.extraBody,
      model: target.model,
      input: probe.messages.map((m) => ({ role: m.role, content: m.content })),
      max_output_tokens: probe.maxTokens,
      ...temperature,
      stream: true,
      // the deltas of output_text then carry each token's logprob
      ...(probe.logprobs ? { include: ['message.output_text.logprobs'] } : {}),
    },
  };
}

/** The path a target's probe requests go to, after its baseUrl. */
export function apiPath(target: Pick<TargetConfig, 'api'>): string {
  return target.api === 'completions' ? '/completions' : target.api === 'responses' ? '/responses' : '/chat/completions';
}

export function effectiveTimeouts(target: TargetConfig, probe: ProbeConfig): StreamTimeouts {
  return { ...target.timeouts, ...probe.timeouts };
}
