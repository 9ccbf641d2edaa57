/**
 * The reference page's browser example of the change feed: the code it shows is the code it runs
 * (the served `changesExample.js` wraps the same text), so the example a reader copies is the one
 * the browser test follows through a dropped stream. Only `show` and `resync` are the page's.
 */
export function changesExampleCode(changesUrl: string): string {
  return `// Every public change from now on, as it becomes visible (&type=competition,club&country=LV narrows it).
const { meta } = await (await fetch(${JSON.stringify(`${changesUrl}?limit=1`)})).json();
const changes = new EventSource(${JSON.stringify(`${changesUrl}?after=`)} + meta.latest);
changes.addEventListener('change', (event) => {
  // { cursor, at, type, id, action, url }; event.lastEventId is its cursor.
  show(JSON.parse(event.data));
});
// A dropped stream is reopened by the browser, which sends the last cursor as Last-Event-ID:
// nothing is missed and nothing comes twice.
changes.addEventListener('expired', () => {
  // The cursor is older than the changes kept: resync from the listings, then follow again.
  changes.close();
  resync();
});`;
}

/** How many changes the page lists before it drops the oldest. */
const SHOWN = 100;

/** `changesExample.js`: the example, run when the reader asks, writing into the page's section. */
export function changesExampleScript(changesUrl: string): string {
  return `'use strict';
(function () {
  var section = document.getElementById('changes-example');
  var list = section.querySelector('ol');
  var state = section.querySelector('output');
  var follow = section.querySelector('button[name="follow"]');
  var stop = section.querySelector('button[name="stop"]');
  function show(change) {
    var item = document.createElement('li');
    item.setAttribute('data-cursor', change.cursor);
    item.textContent = change.at + ' ' + change.action + ' ' + change.type + ' ' + change.id;
    list.insertBefore(item, list.firstChild);
    while (list.children.length > ${SHOWN}) list.removeChild(list.lastChild);
  }
  function resync() {
    state.value = 'closed: resync from the listings';
  }
  follow.addEventListener('click', async function () {
    follow.disabled = true;
    stop.disabled = false;
    state.value = 'connecting';
${indent(changesExampleCode(changesUrl), 4)}
    changes.addEventListener('open', function () {
      state.value = 'open';
    });
    changes.addEventListener('error', function () {
      if (changes.readyState === EventSource.CONNECTING) state.value = 'reconnecting';
    });
    stop.onclick = function () {
      changes.close();
      state.value = 'stopped';
      stop.disabled = true;
      follow.disabled = false;
    };
  });
})();
`;
}

/** The page's section: what the feed is, the example's code, and its live output. */
export function changesExampleHtml(changesUrl: string): string {
  return `<section id="changes-example" aria-labelledby="changes-example-title">
<h2 id="changes-example-title">Follow the changes live</h2>
<p><code>GET ${escapeHtml(changesUrl)}</code> with <code>Accept: text/event-stream</code> streams every public change as it becomes visible; a browser follows it with <code>EventSource</code>:</p>
<pre><code>${escapeHtml(changesExampleCode(changesUrl))}</code></pre>
<p><button type="button" name="follow">Follow live</button> <button type="button" name="stop" disabled>Stop</button> <output>not started</output></p>
<ol reversed></ol>
</section>`;
}

function indent(text: string, spaces: number): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `${' '.repeat(spaces)}${line}`))
    .join('\n');
}

export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}
