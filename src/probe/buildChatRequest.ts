import type { ChatRequest, StreamTimeouts } from '../client/streamTypes.js';
import type { ProbeConfig, TargetConfig } from '../config/types.js';
import { VERSION } from '../version.js';

/** The API key of a target, from its variable or its file; null when it has none. Throws when the file cannot be read. */
export function apiKeyOf(target: TargetConfig, env: Record<string, string | undefined>, readKeyFile?: (path: string) => string): string | null {
  if (target.apiKeyEnv) return env[target.apiKeyEnv] || null;
  if (target.apiKeyFile) {
    if (!readKeyFile) throw new Error('no key file reader configured');
    // Files made with `kubectl create secret --from-file` end with a newline.
    const key = readKeyFile(target.apiKeyFile).trim();
    if (!key) throw new Error('the API key file is empty');
    return key;
  }
  return null;
}

/** How a target's requests are shaped: pinned in its config, or learned from its refusals. */
export interface RequestShape {
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  omitTemperature: boolean;
}

export function shapeOf(target: Pick<TargetConfig, 'maxTokensField' | 'omit'>): RequestShape {
  return { maxTokensField: target.maxTokensField ?? 'max_tokens', omitTemperature: target.omit.includes('temperature') };
}

/**
 * The shape a refusal (HTTP 400) asks for, and a note for the sample, or null when it names
 * nothing the daemon may change. OpenAI's reasoning models answer "Unsupported parameter:
 * 'max_tokens' ... Use 'max_completion_tokens' instead." and "Unsupported value:
 * 'temperature' does not support 0.6 with this model. Only the default (1) value is supported."
 * A field the target pins in its config is never changed.
 */
export function adaptToRefusal(
  message: string,
  shape: RequestShape,
  target: Pick<TargetConfig, 'maxTokensField'>,
  probe: Pick<ProbeConfig, 'temperature'>,
): { shape: RequestShape; note: string } | null {
  if (!/^HTTP 400\b/.test(message)) return null;
  if (shape.maxTokensField === 'max_tokens' && target.maxTokensField === null && /max_tokens/.test(message) && /max_completion_tokens|unsupported parameter/i.test(message)) {
    return { shape: { ...shape, maxTokensField: 'max_completion_tokens' }, note: 'max_tokens refused: the token limit is sent as max_completion_tokens' };
  }
  if (!shape.omitTemperature && /temperature/.test(message) && /unsupported|not support|only the default|must be 1/i.test(message)) {
    return {
      shape: { ...shape, omitTemperature: true },
      note: `temperature ${probe.temperature} refused: sampled at the server's default temperature`,
    };
  }
  return null;
}

export function buildChatRequest(target: TargetConfig, probe: ProbeConfig, apiKey: string | null, shape: RequestShape = shapeOf(target)): ChatRequest {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'user-agent': `coherency-exporter/${VERSION}`,
    ...target.headers,
  };
  if (apiKey) headers['authorization'] = `Bearer ${apiKey}`;
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
    },
  };
}

export function effectiveTimeouts(target: TargetConfig, probe: ProbeConfig): StreamTimeouts {
  return { ...target.timeouts, ...probe.timeouts };
}
