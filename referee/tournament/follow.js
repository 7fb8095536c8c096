// How the hall's pages follow a server-sent event stream (written into each by referee/tournament/hall.py,
// with $ defined): fetch (it sends the token, which an EventSource cannot), read the stream's blocks, hand
// each data line's JSON to onData. A refusal for good (401, 403, 404: a bad token or table) is said and ends
// it; anything else (the server busy or its store unavailable: 429, 5xx; a lost connection; a stream that
// ended) is tried again, after 1 s doubling to 30 s (at least the server's Retry-After), back to 1 s once
// an event has come through.
async function follow(url, headers, onData, wait) {
  wait = wait || 1000;
  try {
    const res = await fetch(url, {headers: headers});
    if (!res.ok) {
      // the refusal in the page's language where the page words them (pagewords.js), else as the server said it
      let m = res.status; try { const b = await res.json(); m = (typeof errorSaid === "function" ? await errorSaid(b) : b.message) || m; } catch (e) {}
      if (res.status !== 429 && res.status < 500) { $("status").textContent = gettext("cannot follow: {why}", {why: m}); return; }
      wait = Math.max(wait, 1000 * (Number(res.headers.get("Retry-After")) || 0));
      $("status").textContent = gettext("the server cannot answer now ({why}); retrying", {why: m});
    } else {
      const reader = res.body.getReader(); const dec = new TextDecoder(); let buf = "";
      for (;;) {
        const {value, done} = await reader.read(); if (done) break;
        buf = (buf + dec.decode(value, {stream: true})).replace(/\r\n/g, "\n");
        let i;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, i); buf = buf.slice(i + 2);
          const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, "")).join("\n");
          if (data) { wait = 1000; onData(JSON.parse(data)); }
        }
      }
      $("status").textContent = gettext("the stream ended; reconnecting");
    }
  } catch (e) { $("status").textContent = gettext("connection lost; retrying"); }
  setTimeout(() => follow(url, headers, onData, Math.min(wait * 2, 30000)), wait);
}
