/** A request message reduced to its role and text (string content, or the text parts joined). */
export interface MessageText {
  role: string;
  content: string;
}

export function messageTexts(messages: readonly unknown[]): MessageText[] {
  return messages.map((message) => {
    const m = (message ?? {}) as { role?: unknown; content?: unknown };
    const role = typeof m.role === 'string' ? m.role : '';
    if (typeof m.content === 'string') return { role, content: m.content };
    if (!Array.isArray(m.content)) return { role, content: '' };
    const parts = m.content.map((part) => (part as { text?: unknown } | null)?.text).filter((t): t is string => typeof t === 'string');
    return { role, content: parts.join('') };
  });
}

/** The text of the last user message; '' when there is none. */
export function lastUserText(messages: readonly MessageText[]): string {
  for (let i = messages.length - 1; i >= 0; i--)
    if ((messages[i] as MessageText).role === 'user') return (messages[i] as MessageText).content;
  return '';
}
