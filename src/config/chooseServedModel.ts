/**
 * Which model to probe when OPENAI_BASE_URL is set and OPENAI_MODEL is not (or `probe` is given
 * no --model): the one model the endpoint's GET {baseUrl}/models lists. Several, none, or a list that could not be read: no
 * guess, a message saying what was found and what to set. Pure: the read comes in as a value
 * (daemon/servedModel.ts does it).
 */

/** The answer of GET {baseUrl}/models, as far as it came. */
export interface ModelsAnswer {
  /** null when no answer came. */
  status: number | null;
  body: string;
  /** Why the read failed (connect error, timeout, too large), null when it ended. */
  error: string | null;
}

/**
 * A refusal: `unreachable` when no list came (no answer, an HTTP error: a target error for the
 * probe command's exit status), else the list could not pick one (several, none, not a list).
 */
export type ServedModelChoice = { ok: true; model: string; note: string } | { ok: false; message: string; unreachable: boolean };

/** How a message names the missing setting: serve's variables, or the probe command's flag. */
export interface ModelSetting {
  /** What is missing, e.g. "OPENAI_MODEL: is not set". */
  missing: string;
  /** How to give it, e.g. "Set OPENAI_MODEL (or COHERENCY_MODEL)". */
  give: string;
  /** The setting with a value, e.g. "OPENAI_MODEL=qwen". */
  example: (model: string) => string;
  /** How to try without a server, e.g. "to try the exporter without a server, run it with --demo". */
  tryWithout: string;
}

/** serve's words: the environment variables, and --demo. */
export const SERVE_MODEL_SETTING: ModelSetting = {
  missing: 'OPENAI_MODEL: is not set',
  give: 'Set OPENAI_MODEL (or COHERENCY_MODEL)',
  example: (model) => `OPENAI_MODEL=${model}`,
  tryWithout: 'to try the exporter without a server, run it with --demo',
};

/** Model ids listed at most in a message; the rest are counted. */
export const LISTED_MODELS_MAX = 30;
/** Characters of a model id kept in a message. */
const ID_MAX_CHARS = 200;

/** The ids of a /models body (`{"data": [{"id": …}, …]}`, as OpenAI and the servers that copy it answer); null when it is not such a list. */
export function modelIdsOf(body: string): string[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const data = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)['data'] : undefined;
  if (!Array.isArray(data)) return null;
  const ids = data
    .map((e) => (typeof e === 'object' && e !== null ? (e as Record<string, unknown>)['id'] : undefined))
    .filter((id): id is string => typeof id === 'string' && id.trim() !== '');
  return [...new Set(ids)];
}

/** The model to probe, or the message that says why there is none (`url` is the /models URL, shown as is). */
export function chooseServedModel(answer: ModelsAnswer, url: string, setting: ModelSetting = SERVE_MODEL_SETTING): ServedModelChoice {
  const fail = (what: string, unreachable = false): ServedModelChoice => ({
    ok: false,
    message: `${setting.missing}, and ${what}. ${setting.give} to the model to probe; ${setting.tryWithout}.`,
    unreachable,
  });
  if (answer.error !== null || answer.status === null)
    return fail(`the models could not be read from ${url}: ${answer.error ?? 'no answer'}`, true);
  if (answer.status < 200 || answer.status >= 300) {
    const hint = answer.status === 401 || answer.status === 403 ? ' (is the API key right?)' : '';
    return fail(`${url} answered HTTP ${answer.status}${hint}`, true);
  }
  const ids = modelIdsOf(answer.body);
  if (ids === null) return fail(`${url} did not answer with a list of models ({"data": [{"id": …}]})`);
  if (ids.length === 0) return fail(`${url} lists no models`);
  const shown = ids.map(shownId);
  if (ids.length > 1) {
    const listed = shown
      .slice(0, LISTED_MODELS_MAX)
      .map((id) => `\n    ${id}`)
      .join('');
    const more = ids.length > LISTED_MODELS_MAX ? `\n    … and ${ids.length - LISTED_MODELS_MAX} more` : '';
    return {
      ok: false,
      message: `${setting.missing}, and ${url} lists ${ids.length} models:${listed}${more}\n  ${setting.give} to the one to probe, e.g. ${setting.example(shellWord(ids[0] as string))}; ${setting.tryWithout}.`,
      unreachable: false,
    };
  }
  return { ok: true, model: ids[0] as string, note: `the only one ${url} lists` };
}

/** An id as a message shows it: control characters escaped (a server chose it), long ones cut. */
function shownId(id: string): string {
  const safe = JSON.stringify(id)
    .slice(1, -1)
    .replace(/[\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return safe.length > ID_MAX_CHARS ? `${safe.slice(0, ID_MAX_CHARS)}…` : safe;
}

/** An id as a shell word: as it is when it is plain, else in single quotes. */
function shellWord(id: string): string {
  const shown = shownId(id);
  return /^[A-Za-z0-9._/:@+-]+$/.test(shown) ? shown : `'${shown.replace(/'/g, `'\\''`)}'`;
}
