// A table's live step-through view (written into its shell by referee/tournament/hall.py's table_page, with
// tid, mid, token, $ and follow defined): the match's viewer, fetched again on each new entry. A refusal is
// said in the page's language (errorSaid, pagewords.js), else as the server gave it.
const base = "/tournaments/" + encodeURIComponent(tid) + "/matches/" + encodeURIComponent(mid);
const auth = {headers: {"Authorization": "Bearer " + token}};
$("back").href = "/hall/" + encodeURIComponent(tid) + LANGQ + "#token=" + encodeURIComponent(token);
let frame = $("view"), url = null, busy = false, again = false;
// the viewer is fetched whole (with the token in a header) and shown from a blob: of this page's origin;
// a reader who stepped back from the last entry stays where they are, one at the last follows the play
async function load(head) {
  if (busy) { again = true; return; }
  busy = true;
  try {
    const res = await fetch(base + "/viewer" + LANGQ, auth);
    if (res.status === 429 || res.status >= 500) { setTimeout(() => load(head), 1500); return; }  // busy or its store away: soon
    if (!res.ok) { let m = res.status; try { m = (await errorSaid(await res.json())) || m; } catch (e) {} $("status").textContent = gettext("cannot show the match: {why}", {why: m}); return; }
    const text = await res.text();
    const old = frame.contentDocument && frame.contentDocument.getElementById("slider");
    const keep = old && Number(old.value) < Number(old.max) ? old.value : null;
    const next = document.createElement("iframe"); next.title = frame.title; next.hidden = true;
    const made = URL.createObjectURL(new Blob([text], {type: "text/html"}));
    await new Promise((done) => { next.addEventListener("load", done, {once: true}); next.src = made; frame.after(next); });
    if (keep !== null) { const sl = next.contentDocument.getElementById("slider"); sl.value = keep; sl.dispatchEvent(new Event("input")); }
    frame.remove(); next.hidden = false; next.id = "view"; frame = next;
    if (url) URL.revokeObjectURL(url);
    url = made;
    document.body.dataset.loads = String(Number(document.body.dataset.loads) + 1);
    document.body.dataset.head = String(head);
    $("status").textContent = gettext("live: entry {head}; last update {time}", {head: head, time: new Date().toLocaleTimeString(LANG)});
  } catch (e) { $("status").textContent = gettext("connection lost; retrying"); }
  finally { busy = false; if (again) { again = false; load(document.body.dataset.next); } }
}
if (!token) { $("status").textContent = gettext("open this page as /hall/{tid}/matches/{match}#token=<a token of the tournament>", {tid: tid, match: mid}); } else {
  follow(base + "/events", auth.headers, (snap) => { document.body.dataset.next = String(snap.head); load(snap.head); });
}
