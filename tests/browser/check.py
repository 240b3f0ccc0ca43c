"""The review page in a real browser: loads the shipped article's page and a failing draft's
page from disk in headless chromium, and checks through the DOM that every claim has a marked
element with its status, that focus and hover show the claim's finding, that the draft's changed
number, deleted claim sentence and new unbound number are visibly marked, that the figures' tick
labels print integers and never collide, and that no request leaves the file. Screenshots go to
the output folder. Usage: check.py OUT_DIR (the pages and JSON files are already in it)."""

import base64
import json
import os
import sys

from cdp import Browser

OUT = sys.argv[1]
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


# How the page shows each status of the audit JSON (`report::html::Shown`).
SHOWN = {
    "ok": {"held", "wrong"}, "ok (skips)": {"held", "wrong"}, "wrong": {"wrong"}, "unchecked": {"unchecked"},
    "FAIL": {"failed"}, "ERROR": {"failed"}, "AMBIGUOUS": {"failed"}, "NO ARTICLE": {"failed"},
    "CHANGED": {"changed"}, "EDITED": {"changed"}, "NOT LOCKED": {"changed"}, "LOST": {"changed", "failed"},
}


def load(session, page):
    session.events.clear()
    session.call("Page.navigate", url="file://" + os.path.abspath(page))
    session.wait_for("Page.loadEventFired")
    return [e["params"]["request"]["url"] for e in session.events if e.get("method") == "Network.requestWillBeSent"]


def screenshot(session, name, clip=None):
    params = {"format": "png", "captureBeyondViewport": clip is not None}
    if clip:
        params["clip"] = dict(clip, scale=1)
    data = session.call("Page.captureScreenshot", **params)["data"]
    path = os.path.join(OUT, name)
    with open(path, "wb") as f:
        f.write(base64.b64decode(data))
    return path


def no_request_leaves(urls, page):
    leaving = [u for u in urls if not (u.startswith("file://") and u.endswith(os.path.basename(page))) and not u.startswith("data:")]
    check(len(urls) >= 1 and not leaving, f"{os.path.basename(page)}: no request leaves the file ({len(urls)} made, leaving: {leaving})")


def focus_shows(session, selector):
    """Focuses the element and returns the text of its pop-up as the browser shows it."""
    return session.evaluate(f"""(() => {{
        const el = document.querySelector({json.dumps(selector)});
        if (!el) return null;
        el.focus();
        const pop = el.querySelector(':scope > .pop');
        const shown = pop && getComputedStyle(pop).display !== 'none' && pop.getBoundingClientRect().width > 0;
        return {{focused: document.activeElement === el, shown, text: pop ? pop.innerText : ''}};
    }})()""")


def claims_of(review):
    for i, r in enumerate(review["registries"]):
        for c in r["claims"]:
            yield i, c


browser = Browser()
try:
    s = browser.page()
    s.call("Page.enable")
    s.call("Network.enable")
    s.call("Runtime.enable")
    s.call("Emulation.setDeviceMetricsOverride", width=1280, height=1000, deviceScaleFactor=1, mobile=False)
    # A headless page never has the window's focus, and without it `:focus` matches nothing.
    s.call("Emulation.setFocusEmulationEnabled", enabled=True)

    # The shipped article.
    page = os.path.join(OUT, "review.html")
    review = json.load(open(os.path.join(OUT, "review.json")))
    no_request_leaves(load(s, page), page)
    missing, wrong_status, no_finding, not_shown = [], [], [], []
    for i, c in claims_of(review):
        sel = f'#r{i} [data-claims~="{c["id"]}"][data-status]'
        status = s.evaluate(f"(() => {{ const el = document.querySelector({json.dumps(sel)}); return el ? el.dataset.status : null; }})()")
        if status is None:
            missing.append(c["id"])
            continue
        own = s.evaluate(f"""(() => {{ const p = document.querySelector({json.dumps(f'#r{i} .pc[data-claim="{c["id"]}"]')}); return p ? p.dataset.status : null; }})()""")
        if own not in SHOWN[c["status"]]:
            wrong_status.append(f'{c["id"]}: {c["status"]} shown {own}')
        shown = focus_shows(s, sel)
        if not (shown and shown["focused"] and shown["shown"]):
            not_shown.append(c["id"])
        elif " ".join(c["finding"].split()) not in " ".join(shown["text"].split()):
            no_finding.append(c["id"])
    total = sum(1 for _ in claims_of(review))
    check(not missing, f"every one of the {total} claims has a marked element with its status (missing: {missing})")
    check(not wrong_status, f"each claim shows the status the audit gave it ({wrong_status})")
    check(not not_shown, f"focusing each claim's mark shows its pop-up (not shown: {not_shown})")
    check(not no_finding, f"each pop-up holds its claim's finding (without: {no_finding})")

    # Keyboard: Tab reaches a marked sentence, and Escape closes its pop-up. Tabbing goes on from
    # the last mark the loop above focused, through the rest of the page (the claim links of the
    # second registry, a summary for every evidence run cited) and round to its top links, so
    # the bound grows with the runs the article cites: 18 of them gave about 45 stops before the
    # first mark (2026-12-05).
    s.evaluate("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    reached = None
    for _ in range(150):
        for kind in ("keyDown", "keyUp"):
            s.call("Input.dispatchKeyEvent", type=kind, key="Tab", code="Tab", windowsVirtualKeyCode=9)
        reached = s.evaluate("document.activeElement.classList.contains('mark') ? document.activeElement.dataset.claims : null")
        if reached:
            break
    check(reached is not None, f"Tab reaches a marked sentence ({reached})")
    for kind in ("keyDown", "keyUp"):
        s.call("Input.dispatchKeyEvent", type=kind, key="Escape", code="Escape", windowsVirtualKeyCode=27)
    check(s.evaluate("!document.activeElement.classList.contains('mark')"), "Escape closes the pop-up")

    # Hover shows the pop-up as focus does.
    rect = s.evaluate("""(() => { const el = document.querySelector('#r0 .mark[data-claims~="F6"]'); el.scrollIntoView({block: 'center'});
        const r = el.getClientRects()[0]; return {x: r.left + 20, y: r.top + r.height / 2}; })()""")
    s.call("Input.dispatchMouseEvent", type="mouseMoved", x=rect["x"], y=rect["y"])
    hovered = s.evaluate("""(() => { const pop = document.querySelector('#r0 .mark[data-claims~="F6"] > .pop'); return getComputedStyle(pop).display !== 'none' && pop.innerText.includes('Finding'); })()""")
    check(hovered, "hovering a marked sentence shows its finding")
    s.call("Input.dispatchMouseEvent", type="mouseMoved", x=5, y=5)

    # The figures: every inline SVG, its tick labels as integers where they are whole, none on top of another.
    figures = s.evaluate("""(() => Array.from(document.querySelectorAll('.figure svg')).map((svg, k) => {
        const labels = Array.from(svg.querySelectorAll('text')).map(t => ({text: t.textContent.trim(), r: t.getBoundingClientRect()}))
            .filter(l => /^-?[0-9]+([.][0-9]+)?$/.test(l.text));
        const overlaps = [];
        for (let i = 0; i < labels.length; i++) for (let j = i + 1; j < labels.length; j++) {
            const a = labels[i].r, b = labels[j].r;
            // The same label twice on one axis, close together, is a repeated tick even where the two do not overlap.
            const dx = Math.abs(a.right - b.right), dy = Math.abs(a.top - b.top);
            const near = labels[i].text === labels[j].text && ((dx < 3 && dy < 30) || (dy < 3 && dx < 30));
            if (near || (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)) overlaps.push(labels[i].text + '/' + labels[j].text);
        }
        const r = svg.getBoundingClientRect();
        return {ticks: labels.map(l => l.text), overlaps, rect: {x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height}};
    }))()""")
    images = [f for f in review["figures"] if f["path"].endswith(".svg")]
    check(len(figures) == len(images) >= 1, f"each of the articles' {len(images)} SVG figures is inline ({len(figures)})")
    for k, f in enumerate(figures):
        whole = [t for t in f["ticks"] if t.endswith(".0")]
        check(len(f["ticks"]) >= 4 and not whole, f"figure {k + 1}: tick labels print whole numbers as integers ({f['ticks']})")
        check(not f["overlaps"], f"figure {k + 1}: no tick label repeats or collides with another ({f['overlaps']})")
        screenshot(s, f"figure-{k + 1}.png", f["rect"])

    # The screenshot for the README: the top of the page, then a marked paragraph with a pop-up open.
    s.evaluate("window.scrollTo(0, 0)")
    screenshot(s, "review-top.png")
    s.evaluate("""(() => { const el = document.querySelector('#r0 .mark[data-claims~="F6"]'); el.focus(); el.scrollIntoView({block: 'start'}); window.scrollBy(0, -260); })()""")
    screenshot(s, "review-page.png")

    # A failing draft: a changed number, a deleted claim sentence, a new unbound number.
    page = os.path.join(OUT, "draft.html")
    no_request_leaves(load(s, page), page)
    visible = lambda sel: s.evaluate(f"""(() => {{ const el = document.querySelector({json.dumps(sel)}); if (!el) return null;
        const r = el.getBoundingClientRect(); const cs = getComputedStyle(el);
        return {{w: r.width, h: r.height, text: el.innerText, status: el.dataset.status || null, change: el.dataset.change || null,
                 background: cs.backgroundColor, outline: cs.outlineStyle, decoration: cs.textDecorationStyle}}; }})()""")
    f6 = visible('#r0 .mark[data-claims~="F6"]')
    check(f6 is not None and f6["status"] == "changed" and f6["change"] == "number-changed", f"the changed number's sentence is marked changed ({f6 and (f6['status'], f6['change'])})")
    num = visible('#r0 .mark[data-claims~="F6"] .num.num-changed')
    check(num is not None and "159.62" in num["text"] and num["w"] > 0 and num["outline"] != "none", f"the changed number itself is visibly marked ({num})")
    p6 = visible('#r0 .mark.lost[data-claims~="P6"]')
    check(p6 is not None and p6["change"] == "lost" and p6["w"] > 0, f"the deleted claim sentence is visibly marked where it stood ({p6})")
    shown = focus_shows(s, '#r0 .mark.lost[data-claims~="P6"]')
    check(bool(shown and shown["shown"] and "It also keeps the completion ordering" in shown["text"]), "focusing the lost claim shows the deleted sentence")
    unbound = visible('#r0 .num.unbound[data-number="4.5 µs"]')
    check(unbound is not None and unbound["w"] > 0 and unbound["decoration"] == "wavy", f"the new unbound number is underlined ({unbound})")
    new = visible('#r0 .sent-new')
    check(new is not None and "A typical launch costs about 4.5 µs" in new["text"], "the new sentence is marked new")
    for name, sel in [("draft-F6.png", '#r0 .mark[data-claims~="F6"]'), ("draft-P6.png", '#r0 .mark.lost[data-claims~="P6"]'), ("draft-unbound.png", '#r0 .num.unbound')]:
        s.evaluate(f"""(() => {{ const el = document.querySelector({json.dumps(sel)}); el.focus(); el.scrollIntoView({{block: 'start'}}); window.scrollBy(0, -200); }})()""")
        screenshot(s, name)
    s.evaluate("window.scrollTo(0, 0)")
    screenshot(s, "draft-top.png")
finally:
    browser.close()

print(f"\n{len(failures)} failures" if failures else "\nall browser checks passed")
sys.exit(1 if failures else 0)
