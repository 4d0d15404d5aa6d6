// What the pages a stranger may load (pairing, a podcast app's sync login) do with their form:
// post it as JSON, say how it went, and keep the button held through a throttle's Retry-After.
// Self-contained: it imports nothing of the app.

/** Posts `body` to `url`. Resolves to the decoded answer when it succeeded; otherwise says why
 *  (the server's words, else `failure` and the status) and resolves to null. `say(text, kind)`
 *  shows a message; `submit` is held while the request runs and while a throttle makes it wait. */
export async function postForm({ url, body, submit, say, failure }) {
  submit.disabled = true;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => null);
    if (response.ok) return answer ?? {};
    say(answer?.error ?? `${failure} (${response.status})`, 'error');
    const retry = Number(response.headers.get('Retry-After'));
    if (response.status === 429 && retry > 0) {
      setTimeout(() => { submit.disabled = false; say(''); }, retry * 1000);
      return null;
    }
  } catch {
    say('Could not reach Earshot. Is it still running?', 'error');
  }
  submit.disabled = false;
  return null;
}

/** A `say(text, kind)` for a form's message line (`kind`: '', 'error', 'success'). */
export function messageLine(element) {
  return (text, kind = '') => {
    element.textContent = text;
    element.dataset.kind = kind;
  };
}
