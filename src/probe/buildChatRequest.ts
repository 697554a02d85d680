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

export function buildChatRequest(target: TargetConfig, probe: ProbeConfig, apiKey: string | null): ChatRequest {
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
      max_tokens: probe.maxTokens,
      temperature: probe.temperature,
      stream: true,
      stream_options: { include_usage: true },
    },
  };
}

export function effectiveTimeouts(target: TargetConfig, probe: ProbeConfig): StreamTimeouts {
  return { ...target.timeouts, ...probe.timeouts };
}
