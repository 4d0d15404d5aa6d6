// The login page of a podcast app's Nextcloud sync (Templates/sync-login.mustache): the listener
// types the sync account's name and password; the app polling Earshot then receives them.
// Self-contained: a phone that is not paired may load only this file and views/stranger-form.js.

import { messageLine, postForm } from './views/stranger-form.js';

const form = document.getElementById('sync-login-form');
if (form) {
  const user = document.getElementById('sync-user');
  const password = document.getElementById('sync-password');
  const submit = form.querySelector('.pair-submit');
  const say = messageLine(form.querySelector('.pair-message'));

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!user.value.trim() || !password.value) {
      say('Enter the sync user name and password.', 'error');
      return;
    }
    say('Checking…');
    const answer = await postForm({
      url: '/index.php/login/v2/grant', submit, say, failure: 'Login failed',
      body: { token: form.dataset.token, user: user.value.trim(), password: password.value },
    });
    if (!answer) return;
    say('Connected. Go back to your podcast app: it finishes by itself.', 'success');
    document.body.dataset.granted = 'true';
    form.querySelectorAll('input').forEach((input) => { input.disabled = true; });
  });
}
document.body.dataset.ready = 'true';
