// Text formats shared by every view. They mirror EarshotCore's DisplayFormat (the
// template's durationText, dateText, dateISO) so the first paint and JS renders agree.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Clock time: "m:ss", or "h:mm:ss" from one hour on. */
export function clock(seconds) {
  const total = Math.max(0, Math.floor(Number(seconds) || 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Length in words, as EarshotCore's DisplayFormat.duration: "1h 2m", "54m", "<1m"; "" when unknown. */
export function durationText(seconds) {
  const total = Number(seconds);
  if (!Number.isFinite(total) || total <= 0) return '';
  const minutes = Math.round(total / 60);
  if (minutes < 1) return '<1m';
  if (minutes < 60) return `${minutes}m`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `${h}h` : `${h}h ${m}m`;
}

/** "12 Mar 2026" (UTC day) from Unix seconds; "" when absent. */
export function dateText(unix) {
  if (unix === null || unix === undefined) return '';
  const d = new Date(unix * 1000);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** "2026-03-12" (UTC day) from Unix seconds; "" when absent. */
export function dateISO(unix) {
  if (unix === null || unix === undefined) return '';
  return new Date(unix * 1000).toISOString().slice(0, 10);
}

/** How long ago `unix` was, in words: "just now", "5 min ago", "2 h ago", "yesterday",
 *  "3 days ago", then the date ("on 12 Mar 2026"); "" when absent. */
export function ago(unix, now = Date.now() / 1000) {
  if (unix === null || unix === undefined || !Number.isFinite(Number(unix))) return '';
  const seconds = Math.max(0, now - Number(unix));
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86400);
  if (days === 1) return 'yesterday';
  if (days < 30) return `${days} days ago`;
  return `on ${dateText(unix)}`;
}

/** "1 episode", "3 episodes". */
export function plural(count, word) {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
