/** "just now", "42 s ago", "3 min ago", "5 h ago", "2 d ago": how long ago, for people. */
export function formatAge(seconds: number): string {
  if (!(seconds >= 5)) return 'just now';
  if (seconds < 60) return `${Math.floor(seconds)} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86400)} d ago`;
}

/** "now", "in 42 s", "in 3 min", "in 5 h", "in 2 d": how long until, for people. */
export function formatIn(seconds: number): string {
  if (!(seconds >= 1)) return 'now';
  if (seconds < 60) return `in ${Math.ceil(seconds)} s`;
  if (seconds < 3600) return `in ${Math.round(seconds / 60)} min`;
  if (seconds < 86400) return `in ${Math.round(seconds / 3600)} h`;
  return `in ${Math.round(seconds / 86400)} d`;
}
