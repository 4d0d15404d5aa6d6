// JSON over HTTP under /api/. Errors carry the server's {"error"} message.

/** An HTTP error with the server's message and status. */
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** GET `path` and decode JSON. `signal` (an AbortSignal) cancels it: the promise then rejects
 *  with the browser's AbortError, not an ApiError. */
export function getJSON(path, { signal } = {}) {
  return request(path, { headers: { Accept: 'application/json' }, signal });
}

/** POST `body` as JSON to `path` (no body when `body` is undefined) and decode the JSON answer. */
export function postJSON(path, body) {
  const init = { method: 'POST', headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  return request(path, init);
}

/** PUT `body` as JSON to `path` and decode the JSON answer. */
export function putJSON(path, body) {
  return request(path, {
    method: 'PUT',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** POST a text document (an OPML file, say) to `path` and decode the JSON answer. */
export function postText(path, text, contentType = 'text/plain; charset=utf-8') {
  return request(path, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': contentType },
    body: text,
  });
}

/** DELETE `path` and decode the JSON answer. */
export function deleteJSON(path) {
  return request(path, { method: 'DELETE', headers: { Accept: 'application/json' } });
}

async function request(path, init) {
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error?.name === 'AbortError') throw error; // the caller cancelled it
    throw new ApiError('Could not reach Earshot. Is it still running?', 0);
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const message = typeof body?.error === 'string' && body.error !== ''
      ? body.error
      : `${response.status} ${response.statusText}`.trim();
    throw new ApiError(message, response.status);
  }
  return body;
}
