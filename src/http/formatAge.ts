/** "just now", "42 s ago", "3 min ago", "5 h ago", "2 d ago": how long ago, for people. */
export function formatAge(seconds: number): string {
  if (!(seconds >= 5)) return 'just now';
  if (seconds < 60) return `${Math.floor(seconds)} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86400)} d ago`;
}
