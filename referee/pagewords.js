// What a page shows of the API's JSON, in the page's language (referee/pagewords.py): the API's JSON is
// English in every language, so a result, a recorded refusal, a move's description or a server's refusal
// (errorSaid) a person reads is
// asked of POST /pages/words in the page's LANG. An English page asks nothing. Each piece is asked once
// (the answers are kept); until its answer comes the piece reads as the JSON gave it, and the page is
// drawn again (the function given) when the words arrive. The pages' other words are their gettext's.
const pageWords = {outcomes: new Map(), refusals: new Map(), texts: new Map()};
let pageWordsAsked = {outcomes: [], refusals: [], texts: []}, pageWordsAgain = new Set(), pageWordsTimer = null;
// the words of a list of pieces ({outcomes, refusals, texts}) now, or null when the server cannot say them
async function askWords(body) {
  try {
    const res = await fetch("/pages/words?lang=" + encodeURIComponent(LANG), {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    return res.ok ? await res.json() : null;
  } catch (e) { return null; }
}
function wordsOf_(kind, item, english, again) {
  if (LANG === "en" || item === null || item === undefined) return english;
  const kept = pageWords[kind], key = JSON.stringify(item);
  if (kept.has(key)) return kept.get(key) === null ? english : kept.get(key);
  kept.set(key, null);
  pageWordsAsked[kind].push(item);
  if (again) pageWordsAgain.add(again);
  if (!pageWordsTimer) pageWordsTimer = setTimeout(askPending_, 0);
  return english;
}
async function askPending_() {
  const asked = pageWordsAsked, again = pageWordsAgain;
  pageWordsAsked = {outcomes: [], refusals: [], texts: []}; pageWordsAgain = new Set(); pageWordsTimer = null;
  const answer = await askWords(asked);
  if (!answer) return;  // the pieces read as the JSON gave them
  for (const kind of ["outcomes", "refusals", "texts"]) asked[kind].forEach((item, i) => pageWords[kind].set(JSON.stringify(item), answer[kind][i]));
  for (const draw of again) draw();
}
// a result (schemas.Outcome) in words; ``english``: the JSON's words for it
function outcomeWords(outcome, english, again) { return wordsOf_("outcomes", outcome, english, again); }
// a recorded refusal ({code, message, rule, rule_english}) of ``game``: {message, rule}
function refusalWords(game, rejection, again) {
  const english = {message: rejection.message, rule: rejection.rule || ""};
  return wordsOf_("refusals", {game: game, code: rejection.code, message: rejection.message, rule: rejection.rule || "", rule_english: rejection.rule_english || ""}, english, again);
}
// a server's refusal (an error answer, {code, message, said}) in the page's language, or null when there is no
// message: ``said`` (the template the message was said through, and its values) is worded by the server
async function errorSaid(body) {
  if (!body || !body.message) return null;
  if (LANG === "en" || !body.said) return body.message;
  const a = await askWords({errors: [{message: body.message, said: body.said}]});
  return a && a.errors ? a.errors[0] : body.message;
}
// a text of the catalog (a move's description)
function textWords(text, again) { return text ? wordsOf_("texts", text, text, again) : text; }
