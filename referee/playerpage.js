// The hall's player page (written into its shell by referee/playerpage.py, with tid, pid and token
// defined): the player's page fetched with the token of the address's fragment and shown in its place. A
// refusal is said in the page's language (errorSaid, pagewords.js), else as the server gave it.
const say = (t) => { document.getElementById("status").textContent = t; };
async function load() {
  const url = "/tournaments/" + encodeURIComponent(tid) + "/players/" + encodeURIComponent(pid) + "/page" + LANGQ;
  const res = await fetch(url, {headers: {"Authorization": "Bearer " + token}});
  if (!res.ok) { let m = res.status; try { m = (await errorSaid(await res.json())) || m; } catch (e) {} say(gettext("cannot show the player: {why}", {why: m})); return; }
  const text = await res.text();
  document.open(); document.write(text); document.close();
}
if (!token) { say(gettext("open this page as /hall/{tid}/players/{player}#token=<a token of the tournament>", {tid: tid, player: pid})); }
else { load().catch(() => say(gettext("connection lost; reload the page"))); }
