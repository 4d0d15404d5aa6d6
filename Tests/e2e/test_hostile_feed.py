"""A hostile feed through the real server and a real browser: nothing in it runs.

The feed (served by a local http.server) carries script tags, event-handler attributes,
`javascript:` links in every disguise, SVG and iframe payloads and CSS payloads, in titles,
descriptions, content:encoded and the links of persons, transcripts, chapters and funding. Every
payload tries to set `window.__pwned` to its own name or to call `alert`. The test subscribes
through the UI, walks the library, the podcast page and every episode page, and checks that
nothing ran, that no dangerous element or attribute reached the DOM, that the harmless formatting
did, and that the page's Content-Security-Policy refuses inline script by itself.
"""

import re
import urllib.request

import pytest
from selenium.common.exceptions import NoAlertPresentException

from conftest import all_css, by_css, open_page, tap, wait_until
from feeds import item, rss


def pwn(name):
    """JavaScript that marks payload `name` as having run."""
    return f"window.__pwned='{name}'"


# Show notes HTML: each line is one attack; the first block is harmless formatting that must show.
SCRIPTS_AND_HANDLERS = f"""
<p>Benign: <strong>benign bold</strong>, <em>benign emphasis</em> and a
<a href="https://example.com/benign">benign link</a>.</p>
<ul><li>benign first</li><li>benign second</li></ul>
<script>{pwn('script-tag')}</script>
<script src="data:text/javascript,{pwn('script-src-data')}"></script>
<img src=x onerror="{pwn('img-onerror')}">
<img src=x onerror=alert('img-onerror-alert')>
<svg onload="{pwn('svg-onload')}"><circle r="5"></circle></svg>
<svg><script>{pwn('svg-script')}</script></svg>
<iframe srcdoc="&lt;script&gt;parent.{pwn('iframe-srcdoc')}&lt;/script&gt;"></iframe>
<iframe src="javascript:parent.{pwn('iframe-js')}"></iframe>
<object data="javascript:{pwn('object')}"></object>
<embed src="javascript:{pwn('embed')}">
<details open ontoggle="{pwn('details-ontoggle')}"><summary>x</summary></details>
<input autofocus onfocus="{pwn('input-onfocus')}">
<body onload="{pwn('body-onload')}">
<p onclick="{pwn('p-onclick')}" onmouseover="{pwn('p-onmouseover')}">hover me</p>
<math><mtext><table><mglyph><style><img src=x onerror="{pwn('mxss-math')}"></style></mglyph></table></mtext></math>
<noscript><p title="</noscript><img src=x onerror={pwn('mxss-noscript')}>"></p></noscript>
<meta http-equiv="refresh" content="0;url=javascript:{pwn('meta-refresh')}">
<base href="javascript:{pwn('base')}//">
<form action="javascript:{pwn('form-action')}"><button>go</button></form>
<button formaction="javascript:{pwn('formaction')}">go</button>
"""

LINKS = f"""
<p><a href="https://example.com/links-benign">a benign link in the links episode</a></p>
<a href="javascript:{pwn('js-link')}">plain</a>
<a href="  JaVaScRiPt:{pwn('mixed-case-link')}">mixed case with spaces</a>
<a href="&#106;avascript:{pwn('entity-decimal-link')}">decimal entities</a>
<a href="&#x6A;&#x61;&#x76;&#x61;script:{pwn('entity-hex-link')}">hex entities</a>
<a href="jav&#x09;ascript:{pwn('tab-link')}">a tab inside</a>
<a href="java&#10;script:{pwn('newline-link')}">a newline inside</a>
<a href="javascript&colon;{pwn('colon-entity-link')}">named colon</a>
<a href="data:text/html,&lt;script&gt;{pwn('data-link')}&lt;/script&gt;">data URL</a>
<a href="vbscript:msgbox('vbscript-link')">vbscript</a>
<a href="https://example.com/" onclick="{pwn('onclick-link')}">benign-looking with a handler</a>
<img src="javascript:{pwn('img-js-src')}">
<img src="data:image/svg+xml,&lt;svg onload='{pwn('img-data-svg')}'/&gt;">
<a xlink:href="javascript:{pwn('xlink')}">xlink</a>
"""

STYLES = f"""
<p>Styles episode.</p>
<div style="background:url(javascript:{pwn('css-url')})">css url</div>
<div style="width:expression({pwn('css-expression')})">css expression</div>
<style>body {{ background: url("javascript:{pwn('style-tag')}") }} @import url("javascript:{pwn('style-import')}");</style>
<link rel="stylesheet" href="javascript:{pwn('link-stylesheet')}">
<p style="position:fixed;inset:0;z-index:99999;background:red">full-screen overlay</p>
"""

# Twice escaped: after the XML and one HTML decoding it is text that looks like a tag. It must
# stay text (it never becomes markup, as it would through innerHTML).
DOUBLE_ESCAPED = f"&amp;lt;script&amp;gt;{pwn('double-escaped')}&amp;lt;/script&amp;gt; &amp;lt;img src=x onerror={pwn('double-escaped-img')}&amp;gt;"


def cdata(text):
    return f"<![CDATA[{text}]]>"


def hostile_feed(audio):
    channel = f"""
<itunes:author>&lt;img src=x onerror="{pwn('channel-author')}"&gt;Mallory</itunes:author>
<itunes:summary>&lt;script&gt;{pwn('channel-summary')}&lt;/script&gt;A hostile show.</itunes:summary>
<itunes:image href="javascript:{pwn('channel-image')}"/>
<itunes:owner><itunes:name>&lt;svg onload={pwn('owner')}&gt;</itunes:name><itunes:email>x@example.com"&gt;&lt;script&gt;{pwn('owner-email')}&lt;/script&gt;</itunes:email></itunes:owner>
<itunes:category text="&lt;img src=x onerror={pwn('category')}&gt;"/>
<podcast:funding url="javascript:{pwn('funding')}">&lt;b onmouseover={pwn('funding-title')}&gt;Fund us&lt;/b&gt;</podcast:funding>
<podcast:funding url="https://example.com/fund">Benign funding</podcast:funding>
<podcast:person href="javascript:{pwn('channel-person')}" img="javascript:{pwn('person-img')}">Eve</podcast:person>
"""
    items = [
        item(f"&lt;script&gt;{pwn('title-script')}&lt;/script&gt;Scripts &lt;img src=x onerror=\"{pwn('title-img')}\"&gt; and handlers",
             "hostile-1", audio, raw_title=True, published="Wed, 04 Mar 2026 10:00:00 GMT",
             extra=f"""<description>{cdata(f'<p>Short <b>description</b></p><script>{pwn("description-script")}</script>')}</description>
<content:encoded>{cdata(SCRIPTS_AND_HANDLERS)}</content:encoded>
<psc:chapters version="1.2">
  <psc:chapter start="00:00:00" title="&lt;img src=x onerror=&quot;{pwn('chapter-title')}&quot;&gt;Opening"/>
  <psc:chapter start="00:00:10" title="Second" href="javascript:{pwn('chapter-href')}"/>
</psc:chapters>
<podcast:transcript url="javascript:{pwn('transcript')}" type="text/html"/>
<podcast:person role="guest" href="javascript:{pwn('item-person')}">&lt;img src=x onerror={pwn('person-name')}&gt;Trudy</podcast:person>"""),
        item("Links in every disguise", "hostile-2", audio, published="Tue, 03 Mar 2026 10:00:00 GMT",
             # Entity-escaped HTML in the description (no CDATA).
             extra=f"<description>{LINKS.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')}</description>"),
        item("CSS payloads", "hostile-3", audio, published="Mon, 02 Mar 2026 10:00:00 GMT",
             extra=f"<content:encoded>{cdata(STYLES)}</content:encoded><description>{DOUBLE_ESCAPED}</description>"),
        item(f"Only escaped text &lt;svg onload={pwn('title-svg')}&gt;", "hostile-4", audio,
             published="Sun, 01 Mar 2026 10:00:00 GMT", raw_title=True,
             extra=f"<description>{DOUBLE_ESCAPED}</description>"),
    ]
    return rss(f"Hostile <script>{pwn('channel-title')}</script> Show", items, channel_extra=channel)


# Everything dangerous that could be in the DOM: elements, handler attributes, script URLs,
# style attributes and elements inside the view, scripts other than the app's own.
DOM_PROBLEMS = """
const problems = [];
const view = document.getElementById('view');
const dangerousTags = 'script, iframe, frame, frameset, object, embed, applet, style, link, meta, base, form:not(#add-feed):not(#podcast-skips-form), math, noscript, template';
for (const el of view.querySelectorAll(dangerousTags)) problems.push(`<${el.tagName.toLowerCase()}> in the view`);
for (const el of view.querySelectorAll('svg:not(.icon), svg:not(.icon) *')) problems.push(`<svg> from content`);
const urlAttributes = ['href', 'src', 'action', 'formaction', 'data', 'xlink:href', 'background', 'poster', 'srcset', 'ping'];
for (const el of document.querySelectorAll('*')) {
  for (const attr of el.attributes) {
    const name = attr.name.toLowerCase();
    if (name.startsWith('on')) problems.push(`${el.tagName.toLowerCase()}[${name}]`);
    if (name === 'srcdoc') problems.push(`${el.tagName.toLowerCase()}[srcdoc]`);
    if (urlAttributes.includes(name) && /^\\s*(javascript|vbscript|data)\\s*:/i.test(attr.value.replace(/[\\u0000-\\u0020]/g, ''))) {
      problems.push(`${el.tagName.toLowerCase()}[${name}=${attr.value.slice(0, 40)}]`);
    }
    // The app sizes its own part-played bars through CSSOM (allowed: the CSP forbids style in markup, not
    // CSSOM), which shows as a style attribute; the sanitizer keeps no class, so no feed can make one.
    const ownBar = el.classList.contains('episode-progress-fill') && el.parentElement?.classList.contains('episode-progress');
    if (name === 'style' && view.contains(el) && !ownBar) problems.push(`${el.tagName.toLowerCase()}[style] in the view`);
  }
}
for (const a of view.querySelectorAll('a[href]')) {
  const url = new URL(a.href, location.href);
  const ours = url.origin === location.origin;
  if (!ours && !['http:', 'https:', 'mailto:'].includes(url.protocol)) problems.push(`a link to ${a.href}`);
  if (!ours && url.protocol !== 'mailto:' && !/noopener/.test(a.rel)) problems.push(`external link without noopener: ${a.href}`);
}
const scripts = [...document.scripts].map((s) => new URL(s.src || 'inline:', location.href));
if (scripts.length !== 1 || scripts[0].pathname !== '/js/app.js') problems.push(`scripts: ${scripts.map(String)}`);
return problems;
"""


def squeeze(text):
    """Whitespace collapsed, as WebDriver reports an element's text."""
    return " ".join(text.split())


def assert_nothing_ran(driver, where):
    try:
        alert = driver.switch_to.alert
        text = alert.text
        alert.dismiss()
        pytest.fail(f"{where}: an alert opened: {text!r}")
    except NoAlertPresentException:
        pass
    assert driver.execute_script("return window.__pwned") is None, \
        f"{where}: payload {driver.execute_script('return window.__pwned')!r} ran"
    problems = driver.execute_script(DOM_PROBLEMS)
    assert problems == [], f"{where}: dangerous DOM: {problems}"


def csp_violations(driver):
    """Console entries about the Content-Security-Policy (each one means something tried)."""
    return [e["message"] for e in driver.get_log("browser") if "Content Security Policy" in e["message"]]


@pytest.fixture
def hostile(feed_server):
    audio = feed_server.put_audio("/hostile/audio.mp3")
    return feed_server.put("/hostile/feed.xml", hostile_feed(audio))


def test_hostile_feed_runs_nothing_and_keeps_its_harmless_formatting(server, driver, hostile):
    # Record CSP violations from the first byte of every document (not through the page's script).
    marker = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.__violations = [];
        document.addEventListener('securitypolicyviolation',
          (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample || ''}`));
    """})
    try:
        open_page(driver, server, "/")
        driver.get_log("browser")  # start the console log from here
        field = by_css(driver, "#feed-url")
        field.clear()
        field.send_keys(hostile)
        by_css(driver, "#add-feed button[type=submit]").click()
        wait_until(lambda: by_css(driver, ".form-message.is-success").text, timeout=30,
                   message="the feed to be added through the form")
        podcast = server.podcast_by_feed(hostile)
        assert podcast, "the hostile feed is not in the library"
        episodes = server.get_json(f"/api/podcasts/{podcast['id']}/episodes")["episodes"]
        assert len(episodes) == 4, [e["title"] for e in episodes]
        assert_nothing_ran(driver, "library after subscribing")

        # Through the app: tile → podcast page → each episode page and back.
        tile = wait_until(lambda: by_css(driver, f'.podcast-tile[href="/podcast/{podcast["id"]}"]'), message="the tile")
        tap(driver, tile)
        wait_until(lambda: driver.current_url.endswith(f"/podcast/{podcast['id']}"), message="the podcast page")
        wait_until(lambda: len(all_css(driver, ".episode-list .episode")) == 4, message="its episodes")
        assert_nothing_ran(driver, "podcast page")
        funding = [a.get_attribute("href") for a in all_css(driver, ".podcast-facts a")]
        assert "https://example.com/fund" in funding, funding

        for episode in episodes:
            tap(driver, by_css(driver, f'.episode[data-episode-id="{episode["id"]}"] .episode-title'))
            wait_until(lambda: by_css(driver, ".episode-page").get_attribute("data-episode-id") == str(episode["id"]),
                       message=f"episode page {episode['id']}")
            assert squeeze(by_css(driver, ".episode-page h1").text) == squeeze(episode["title"])
            assert_nothing_ran(driver, f"episode page {episode['guid']}")
            if episode["guid"] == "hostile-1":
                check_benign_formatting(driver)
            if episode["guid"] == "hostile-4":
                # Text that only looks like a tag stays text: shown, never turned into markup.
                notes = by_css(driver, ".show-notes").text
                assert "script" in notes and "double-escaped" in notes, notes
            if episode["guid"] == "hostile-2":
                link = by_css(driver, '.rich-text a[href="https://example.com/links-benign"]')
                assert link.get_attribute("rel") == "noopener noreferrer nofollow"
            driver.back()
            wait_until(lambda: driver.current_url.endswith(f"/podcast/{podcast['id']}"), message="back to the podcast")
            wait_until(lambda: all_css(driver, ".episode-list .episode"), message="the list again")

        # Each page loaded on its own too (server-rendered first paint, then the client).
        for path in ["/", f"/podcast/{podcast['id']}"] + [f"/episode/{e['id']}" for e in episodes]:
            open_page(driver, server, path)
            wait_until(lambda: all_css(driver, "#view h1"), message=f"{path} to render")
            wait_until(lambda: driver.execute_script("return !!document.querySelector('.episode-page, .podcast-header, .podcast-grid')"),
                       message=f"{path} content")
            assert_nothing_ran(driver, path)
            assert driver.execute_script("return window.__violations") == [], \
                f"{path}: something tried to run and CSP stopped it: {driver.execute_script('return window.__violations')}"
        assert csp_violations(driver) == []
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": marker["identifier"]})


def check_benign_formatting(driver):
    notes = by_css(driver, ".show-notes .rich-text")
    assert notes.find_element("css selector", "strong").text == "benign bold"
    assert notes.find_element("css selector", "em").text == "benign emphasis"
    link = notes.find_element("css selector", 'a[href="https://example.com/benign"]')
    assert link.text == "benign link"
    assert link.get_attribute("rel") == "noopener noreferrer nofollow"
    assert link.get_attribute("target") == "_blank"
    assert [li.text for li in notes.find_elements("css selector", "ul > li")][:2] == ["benign first", "benign second"]
    # Chapters keep their titles as text; the javascript: chapter link is gone.
    titles = [t.text for t in all_css(driver, ".chapter-title")]
    assert len(titles) == 2 and titles[1] == "Second", titles
    assert all_css(driver, ".chapter-link") == []


def test_content_security_policy_refuses_inline_script(server, driver):
    for path in ("/", "/player", "/js/app.js", "/api/podcasts"):
        with urllib.request.urlopen(server.url + path, timeout=10) as response:
            policy = response.headers.get("Content-Security-Policy", "")
        directives = {d.split()[0]: d.split()[1:] for d in policy.split(";") if d.strip()}
        assert directives.get("script-src") == ["'self'"], f"{path}: {policy}"
        assert directives.get("object-src") == ["'none'"], f"{path}: {policy}"
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy, f"{path}: {policy}"

    open_page(driver, server, "/")
    driver.get_log("browser")
    driver.execute_script("""
        window.__violations = [];
        document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));
        const script = document.createElement('script');
        script.textContent = "window.__inline = 'ran'";
        document.head.append(script);
        const box = document.createElement('div');
        box.innerHTML = '<img src="/nonexistent.png" onerror="window.__handler = \\'ran\\'">';
        document.body.append(box);
    """)
    wait_until(lambda: len(driver.execute_script("return window.__violations")) >= 2, timeout=5,
               message="two CSP violations (inline script, inline handler)")
    assert driver.execute_script("return [window.__inline, window.__handler]") == [None, None]
    directives = driver.execute_script("return window.__violations")
    assert all(re.match(r"script-src", d) for d in directives), directives
    log = csp_violations(driver)
    assert any("inline script" in m for m in log), log
    assert any("inline event handler" in m for m in log), log


def test_the_page_rechecks_the_sanitized_notes_itself(server, driver):
    """The server's sanitizer is the first wall; the page's renderer must hold on its own. Feed it a
    hostile tree directly (as a broken or compromised server might send) and look at the DOM."""
    open_page(driver, server, "/")
    nodes = [
        {"t": "p", "a": {"style": "background:red", "onmouseover": pwn("p-handler")}, "c": ["para"]},
        {"t": "a", "a": {"href": "  JaVaScRiPt:" + pwn("js-href")}, "c": ["js link"]},
        {"t": "a", "a": {"href": "data:text/html,<script>x</script>"}, "c": ["data link"]},
        {"t": "a", "a": {"href": "/relative/path"}, "c": ["relative link"]},
        {"t": "a", "a": {"href": "https://example.com/ok", "onclick": pwn("a-onclick"), "target": "_self"}, "c": ["good link"]},
        {"t": "a", "a": {"href": "mailto:someone@example.com"}, "c": ["mail"]},
        {"t": "img", "a": {"src": "javascript:" + pwn("img-js")}},
        {"t": "img", "a": {"src": "https://example.com/i.png", "onerror": pwn("img-onerror"), "width": "40", "height": "x"}},
        {"t": "script", "c": [pwn("script-text")]},
        {"t": "iframe", "a": {"srcdoc": "<script>" + pwn("srcdoc") + "</script>"}, "c": ["inside iframe"]},
        {"t": "svg", "a": {"onload": pwn("svg")}, "c": [{"t": "STRONG", "c": ["upper-case tag"]}]},
        {"t": "br", "c": ["children of br are dropped"]},
        7, None, {"c": ["no tag"]},
    ]
    html, texts = driver.execute_async_script("""
        const [nodes, done] = arguments;
        let deep = 'bottom'; // far deeper than any show notes: text only, no stack overflow
        for (let i = 0; i < 20000; i += 1) deep = { t: 'em', c: [deep] };
        import('/js/core/rich-text.js').then(({ richText }) => {
          const box = document.createElement('div');
          box.append(richText(nodes));
          const deepBox = document.createElement('div');
          deepBox.append(richText([deep]));
          done([box.innerHTML, deepBox.textContent]);
        });
    """, nodes)
    expected = ('<p>para</p>js linkdata linkrelative link'
                '<a href="https://example.com/ok" rel="noopener noreferrer nofollow" target="_blank">good link</a>'
                '<a href="mailto:someone@example.com" rel="noopener noreferrer nofollow" target="_blank">mail</a>'
                '<img src="https://example.com/i.png" alt="" loading="lazy" decoding="async" referrerpolicy="no-referrer" '
                'class="notes-image" width="40">'
                f"{pwn('script-text')}inside iframe<strong>upper-case tag</strong><br>")
    assert html == expected
    assert texts == "bottom"
    assert driver.execute_script("return window.__pwned") is None
