// A podcast's own skips (the podcast view): skip the first N seconds (its intro), stop N seconds
// before the end (its outro: the episode counts as played there), and skip chapters whose titles
// hold one of a few words ("Sponsor", "Ad"). Server settings (`state.settings.podcasts[id]`,
// changed with `podcast.settings`), so every client shows the same; a fold that says in one line
// what is set. Its own skip silence and volume leveling too (applied when chosen; "Default"
// follows the player's).

import { h } from '../core/dom.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { LEVELING, SILENCE, choiceName, choiceSelect } from './listening-settings.js';

/** The fold for podcast `id`; `update(state)` shows the server's values (not while typing). */
export function podcastSkips(id) {
  const intro = secondsField('intro', 'Skip intro', 'Seconds skipped at the start of each episode');
  const outro = secondsField('outro', 'Skip outro', 'Seconds left out at the end of each episode');
  const words = h('input', {
    type: 'text', class: 'text-input skip-chapters-input', placeholder: 'Sponsor, Ad',
    'aria-label': 'Skip chapters whose titles hold these words (commas between)', autocomplete: 'off', spellcheck: 'false',
  });
  const withDefault = (choices) => [['default', 'Default'], ...choices];
  const silence = choiceSelect('podcast-silence', 'Skip silence', 'Pauses in this podcast play through fast',
    withDefault(SILENCE), (value) => socket.send(Cmd.podcastSettings, { podcast: id, skipSilence: value }));
  const leveling = choiceSelect('podcast-leveling', 'Loudness', 'This podcast at the same loudness as the others',
    withDefault(LEVELING), (value) => socket.send(Cmd.podcastSettings, { podcast: id, leveling: value }));
  const save = h('button', { type: 'submit', class: 'button button-small button-primary skips-save' }, 'Save');
  const summary = h('span', { class: 'skips-summary' });
  const form = h('form', { class: 'skips-form', id: 'podcast-skips-form' },
    intro.el, outro.el,
    h('label', { class: 'skips-field skips-words' }, h('span', { class: 'skips-label' }, 'Skip chapters titled'), words),
    h('p', { class: 'skips-hint' }, 'Whole words, any case, commas between. A skip is shown with Undo for 5 seconds.'),
    save);
  const el = h('details', { class: 'podcast-skips' },
    h('summary', { class: 'skips-heading' }, h('span', {}, 'Skips'), summary),
    h('div', { class: 'skips-choices' }, silence.el, leveling.el), form);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    socket.send(Cmd.podcastSettings, {
      podcast: id,
      introSkip: intro.value(),
      outroSkip: outro.value(),
      skipChapters: words.value.split(',').map((w) => w.trim()).filter(Boolean),
    });
  });

  let shown = null;
  const update = (state) => {
    const skips = state?.settings?.podcasts?.[String(id)] ?? {};
    const defaults = { skipSilence: state?.settings?.skipSilence ?? 'off', leveling: state?.settings?.leveling ?? 'off' };
    const next = JSON.stringify([skips, defaults]);
    if (next === shown) return;
    shown = next;
    const typing = form.contains(document.activeElement) && document.activeElement !== save;
    if (!typing) {
      intro.show(skips.introSkip ?? 0);
      outro.show(skips.outroSkip ?? 0);
      words.value = (skips.skipChapters ?? []).join(', ');
    }
    silence.show(skips.skipSilence ?? 'default');
    leveling.show(skips.leveling ?? 'default');
    silence.select.options[0].textContent = `Default (${choiceName(SILENCE, defaults.skipSilence)})`;
    leveling.select.options[0].textContent = `Default (${choiceName(LEVELING, defaults.leveling)})`;
    summary.textContent = describe(skips);
  };
  return { el, update };
}

/** One line for the fold's heading: what is set, or "Off". */
function describe(skips) {
  const parts = [];
  if (skips.introSkip > 0) parts.push(`intro ${skips.introSkip} s`);
  if (skips.outroSkip > 0) parts.push(`outro ${skips.outroSkip} s`);
  if (skips.skipChapters?.length) parts.push(`chapters: ${skips.skipChapters.join(', ')}`);
  if (skips.skipSilence) parts.push(`silence ${choiceName(SILENCE, skips.skipSilence).toLowerCase()}`);
  if (skips.leveling) parts.push(choiceName(LEVELING, skips.leveling).toLowerCase());
  return parts.length ? parts.join(' · ') : 'Off';
}

function secondsField(key, words, label) {
  const input = h('input', {
    type: 'number', min: '0', max: '600', step: '1', inputmode: 'numeric',
    class: `text-input skips-seconds skip-${key}-input`, 'aria-label': label,
  });
  const el = h('label', { class: 'skips-field' }, h('span', { class: 'skips-label' }, words), input, h('span', { class: 'skips-unit' }, 's'));
  return {
    el,
    value: () => {
      const n = Number(input.value);
      return Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
    },
    show: (seconds) => { input.value = String(seconds); },
  };
}
