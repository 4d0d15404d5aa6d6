// A search snippet with its matched words highlighted: the server sends `{"text", "marks":
// [[start, end]]}`, the marks being UTF-16 offsets into `text` (JavaScript string indexes). The
// highlight is built from text nodes and <mark> elements only, never from markup.

/** A DocumentFragment of `snippet.text` with each valid mark in a `<mark>`; `fallback` when the
 *  snippet has no text. Marks that are out of range, empty, or overlap an earlier one are skipped. */
export function markedText(snippet, fallback = '') {
  const fragment = document.createDocumentFragment();
  const text = typeof snippet?.text === 'string' ? snippet.text : '';
  if (!text) {
    if (fallback) fragment.append(document.createTextNode(fallback));
    return fragment;
  }
  const marks = (Array.isArray(snippet.marks) ? snippet.marks : [])
    .filter((m) => Array.isArray(m) && Number.isInteger(m[0]) && Number.isInteger(m[1]) && m[0] >= 0 && m[1] > m[0] && m[1] <= text.length)
    .sort((a, b) => a[0] - b[0]);
  let at = 0;
  for (const [start, end] of marks) {
    if (start < at) continue; // overlaps the one before
    if (start > at) fragment.append(document.createTextNode(text.slice(at, start)));
    const mark = document.createElement('mark');
    mark.className = 'hit';
    mark.textContent = text.slice(start, end);
    fragment.append(mark);
    at = end;
  }
  if (at < text.length) fragment.append(document.createTextNode(text.slice(at)));
  return fragment;
}
