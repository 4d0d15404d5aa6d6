"""The header at every width between a phone and a desktop: one line, every link reachable.

Found by looking (a 500 px window): between 480 and ~760 px the four header links kept their
words and wrapped them letter by letter ("Dow nlo ads"), and the header grew to three lines."""

from conftest import open_page, set_viewport

WIDTHS = (360, 390, 430, 500, 560, 620, 700, 768, 800, 1024, 1280)


def test_header_is_one_line_with_every_link_visible(server, driver):
    try:
        heights = {}
        for width in WIDTHS:
            set_viewport(driver, width, 700)
            open_page(driver, server, "/")
            facts = driver.execute_script("""
                const header = document.querySelector('.app-header-inner') || document.querySelector('header');
                const links = [...header.querySelectorAll('a, button')].filter(e => e.offsetParent !== null);
                const top = Math.min(...links.map(e => e.getBoundingClientRect().top));
                return {
                  height: Math.round(document.querySelector('header').getBoundingClientRect().height),
                  rows: new Set(links.map(e => Math.round(e.getBoundingClientRect().top))).size,
                  tall: links.filter(e => e.getBoundingClientRect().height > 52).map(e => e.textContent.trim()),
                  hidden: links.filter(e => e.getBoundingClientRect().width < 24).map(e => e.textContent.trim()),
                  scrollX: document.documentElement.scrollWidth > window.innerWidth,
                  // An icon inside a span the words' hiding rule clipped to 1 px shows nothing.
                  icons: [...header.querySelectorAll('.header-link')].filter(link => {
                    const svg = [...link.querySelectorAll('svg')].find(s => s.getClientRects().length > 0);
                    if (!svg) return true;
                    const box = svg.parentElement === link ? svg : svg.parentElement;
                    return box.getBoundingClientRect().width < 16;
                  }).map(link => link.textContent.trim()),
                };""")
            heights[width] = facts["height"]
            assert facts["rows"] == 1, f"{width} px: header links on {facts['rows']} rows"
            assert not facts["tall"], f"{width} px: links wrapped onto two lines: {facts['tall']}"
            assert not facts["hidden"], f"{width} px: links with no room: {facts['hidden']}"
            assert not facts["scrollX"], f"{width} px: the page scrolls sideways"
            assert not facts["icons"], f"{width} px: header links whose icon has no room: {facts['icons']}"
        assert len(set(heights.values())) == 1, f"the header's height changes with the width: {heights}"
    finally:
        set_viewport(driver, 1280, 800)
