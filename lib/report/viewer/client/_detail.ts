/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The detail pane: a sample in full (prompt, reasoning, reply with the
 * extracted answer marked, verdict, the suite's own parts, the call), a
 * disagreement group's replies side by side, or the pairs table.
 *
 * @module
 */
import type { PayloadCell } from "../payload.ts";
import type { DetailPart } from "../types.ts";
import { el } from "./_dom.ts";
import { fmt, mcnemar } from "./_numbers.ts";
import { type Group, GROUP_FIELDS } from "./_query.ts";
import { AXES } from "./_state.ts";
import { natural } from "./_table.ts";
import type { Viewer } from "./_viewer.ts";

/** A chat message as stored in `prompt` and `transcript`. */
interface Message {
  role?: string;
  content?: unknown;
  tool_calls?: unknown;
}

/** A titled section of the pane (`data-part`). */
function block(title: string, part: string, ...kids: Node[]): HTMLElement {
  return el(
    "section",
    { class: "vw-part", "data-part": part },
    el("h4", { text: title }),
    ...kids,
  );
}

/** Text in a `<pre>` (`code` or `wrap`). */
function pre(text: PayloadCell, cls?: string): HTMLElement {
  return el("pre", { class: cls || "", text: text === null ? "" : text });
}

/** Text with `span` marked as the extracted answer. */
function highlighted(
  text: string,
  span: [number, number] | null,
  cls: string,
): HTMLElement {
  const p = el("pre", { class: cls || "" });
  if (!span) {
    p.textContent = text;
    return p;
  }
  p.append(
    text.slice(0, span[0]),
    el("mark", { class: "vw-extracted", text: text.slice(span[0], span[1]) }),
    text.slice(span[1]),
  );
  return p;
}

/** Labelled values, empty ones left out. */
function fields(pairs: [string, PayloadCell | undefined][]): HTMLElement {
  const dl = el("dl", { class: "vw-fields" });
  for (const [k, v] of pairs) {
    if (v === null || v === undefined || v === "") continue;
    dl.append(el("dt", { text: k }), el("dd", { text: String(v) }));
  }
  return dl;
}

/** A part of the suite's own detail. */
function suitePart(p: DetailPart): HTMLElement {
  if (p.kind === "fields") return block(p.title, "suite", fields(p.fields));
  if (p.kind === "text") {
    return block(p.title, "suite", pre(p.text, p.code ? "code" : "wrap"));
  }
  const t = el("table", { class: "vw-table" + (p.code ? " code" : "") });
  if (p.columns.length) {
    t.append(
      el(
        "thead",
        {},
        el("tr", {}, ...p.columns.map((c) => el("th", { text: c }))),
      ),
    );
  }
  t.append(
    el(
      "tbody",
      {},
      ...p.rows.map((r) =>
        el(
          "tr",
          {},
          ...r.map((c) => el("td", { text: c === null ? "" : String(c) })),
        )
      ),
    ),
  );
  return block(p.title, "suite", el("div", { class: "vw-scrollx" }, t));
}

/** Chat messages (JSON), each with its role; other text as it is. */
function messages(json: string): HTMLElement[] {
  let list: Message[];
  try {
    list = JSON.parse(json);
  } catch {
    return [pre(json, "wrap")];
  }
  return list.map((m) => {
    const text = typeof m.content === "string" && !m.tool_calls
      ? m.content
      : JSON.stringify(m.tool_calls ? m : m.content ?? m, null, 1);
    return el(
      "div",
      { class: "vw-msg", "data-role": m.role || "" },
      el("span", { class: "vw-role", text: m.role || "?" }),
      pre(text, text.includes("```") || text !== m.content ? "code" : "wrap"),
    );
  });
}

/** The extracted answer's span in the reply: the suite's, or its last occurrence. */
function spanOf(v: Viewer, i: number, reply: string): [number, number] | null {
  const s = v.table.data.spans[i];
  if (s) return s;
  const x = v.table.val("extracted", i);
  if (x === null || x === "" || !reply) return null;
  const at = reply.lastIndexOf(String(x));
  return at < 0 ? null : [at, at + String(x).length];
}

/** The messages sent (or, for older rows, the question) and tool turns. */
function promptPart(v: Viewer, i: number): HTMLElement {
  const val = v.table.val;
  const prompt = val("prompt", i);
  const transcript = val("transcript", i);
  const tools = transcript ? "; the tool turns follow." : ".";
  const kids = prompt
    ? [
      el("p", {
        class: "note",
        text: "The messages as sent with template “" + val("template", i) +
          "”" + tools,
      }),
      ...messages(String(prompt)),
    ]
    : [
      el("p", {
        class: "note",
        text: "The question as asked with template “" + val("template", i) +
          "”" + (transcript
            ? "; the tool turns follow."
            : " (this row was written before runs kept the messages sent; the template adds its instructions around the question)."),
      }),
      pre(val("question", i), "wrap"),
    ];
  return block(
    "Prompt",
    "prompt",
    ...kids,
    ...(transcript ? messages(String(transcript)) : []),
  );
}

/** A sample in full. */
function sampleDetail(v: Viewer, i: number): HTMLElement[] {
  const { val, data } = v.table;
  const key = val("key", i);
  const st = val("status", i);
  const reply = String(val("response", i) || "");
  const code = reply.includes("```") ? "code" : "wrap";
  const parts = [
    el("h3", { text: val("model", i) + " · " + val("question_id", i) }),
    fields([
      ["key", key],
      ["suite", val("suite", i)],
      ["template", val("template", i)],
      ["sample", val("sample", i)],
      ["run", v.shape.runs.length > 1 ? val("run", i) : null],
    ]),
    block(
      "Verdict",
      "verdict",
      el(
        "p",
        {},
        el("span", { class: "st st-" + st, text: st }),
        val("error_class", i) ? " · " + val("error_class", i) : "",
      ),
      fields([["explanation", val("explanation", i)], [
        "relative error",
        val("rel_error", i),
      ]]),
    ),
    promptPart(v, i),
  ];
  const reasoning = val("reasoning", i);
  if (reasoning) {
    parts.push(
      block(
        "Reasoning (kept apart from the reply)",
        "reasoning",
        pre(reasoning, "wrap"),
      ),
    );
  }
  parts.push(
    block("Reply", "reply", highlighted(reply, spanOf(v, i, reply), code)),
  );
  const x = val("extracted", i);
  parts.push(
    block(
      "Extracted answer",
      "extracted",
      fields([
        ["rule", val("extract_rule", i)],
        ["candidates", val("candidates", i)],
        ["set aside", val("set_aside", i)],
        ["the rules read", val("rule_extract", i)],
        ["the judge read", val("judge_answer", i)],
      ]),
      x === null
        ? el("p", { class: "note", text: "nothing extracted" })
        : pre(x, String(x).includes("\n") ? "code" : "wrap"),
    ),
  );
  parts.push(block("Expected", "expected", pre(val("expected", i), "wrap")));
  for (const p of data.detail[i] || []) {
    parts.push(suitePart(JSON.parse(data.S[p] ?? "null") as DetailPart));
  }
  parts.push(block(
    "Call",
    "call",
    fields([
      ["prompt tokens", val("prompt_tokens", i)],
      ["completion tokens", val("completion_tokens", i)],
      ["latency (ms)", val("latency_ms", i)],
      ["attempts", val("attempts", i)],
      ["finish reason", val("finish_reason", i)],
      ["cached", val("cached", i)],
      ["error", val("error_kind", i)],
      ["error message", val("error_message", i)],
    ]),
  ));
  return parts;
}

/** A disagreement group: the question, and each member's reply side by side. */
function groupDetail(v: Viewer, g: Group): HTMLElement[] {
  const val = v.table.val;
  const cols = [...g.members.entries()].sort((a, b) => natural(a[0], b[0]));
  const i0 = g.first;
  const box = el("div", { class: "vw-side" });
  for (const [m, i] of cols) {
    const st = val("status", i);
    const reply = String(val("response", i) || "");
    box.append(
      el(
        "div",
        { class: "vw-sidecol", "data-key": val("key", i), "data-member": m },
        el(
          "h4",
          {},
          el("button", {
            type: "button",
            class: "vw-link",
            text: m,
            title: "open this sample",
            onclick: () => v.open(String(val("key", i))),
          }),
        ),
        el("p", {}, el("span", { class: "st st-" + st, text: st })),
        fields([["extracted", val("extracted", i)], [
          "explanation",
          val("explanation", i),
        ]]),
        highlighted(
          reply,
          spanOf(v, i, reply),
          reply.includes("```") ? "code" : "wrap",
        ),
      ),
    );
  }
  const by = v.state.by;
  return [
    el("h3", { text: val("question_id", i0) }),
    fields([
      ["suite", val("suite", i0)],
      ["model", by !== "model" ? val("model", i0) : null],
      ["template", by !== "template" ? val("template", i0) : null],
      ["sample", val("sample", i0)],
    ]),
    block("Question", "prompt", pre(val("question", i0), "wrap")),
    block("Expected", "expected", pre(val("expected", i0), "wrap")),
    block("Side by side", "side", box),
  ];
}

/** The pairs of members: pairs answered, each one's wins, McNemar's p. */
function pairsDetail(v: Viewer): HTMLElement[] {
  const { members, groups } = v;
  const val = v.table.val;
  const t = el("table", { class: "vw-table", id: "vw-pairs" });
  t.append(
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ...["A", "B", "pairs", "only A right", "only B right", "McNemar p"]
          .map((h) => el("th", { text: h })),
      ),
    ),
  );
  const body = el("tbody");
  for (let a = 0; a < members.length; a++) {
    for (let b = a + 1; b < members.length; b++) {
      let n = 0, oa = 0, ob = 0;
      for (const g of groups.all) {
        const ia = g.members.get(members[a]!),
          ib = g.members.get(members[b]!);
        if (ia === undefined || ib === undefined) continue;
        n++;
        const ca = val("status", ia) === "correct",
          cb = val("status", ib) === "correct";
        if (ca && !cb) oa++;
        if (cb && !ca) ob++;
      }
      if (n === 0) continue;
      const p = mcnemar(oa, ob);
      body.append(
        el(
          "tr",
          {},
          ...[
            members[a]!,
            members[b]!,
            fmt(n),
            fmt(oa),
            fmt(ob),
            p < 0.001 ? p.toExponential(1) : p.toFixed(3),
          ].map((c) => el("td", { text: c })),
        ),
      );
    }
  }
  t.append(body);
  const by = v.state.by;
  return [
    el("h3", { text: "Pairs of " + AXES[by] }),
    el("p", {
      class: "note",
      text: "Over the questions both answered (same suite, question, " +
        GROUP_FIELDS.filter((f) =>
          f !== by && f !== "suite" && f !== "question_id"
        ).join(", ") +
        "), with the filters above; the exact McNemar test on the pairs only one got right. Pick a question on the left to see the replies side by side.",
    }),
    el("div", { class: "vw-scrollx" }, t),
  ];
}

/**
 * Draws the pane for the state: the open sample, else the open group or
 * the pairs table (disagreement view), else a note. Scrolls it to the top
 * when what it shows changes.
 */
export function drawDetail(v: Viewer, pane: HTMLElement): void {
  const s = v.state;
  let kids: HTMLElement[];
  const i = s.open ? v.table.indexOfKey(s.open) : -1;
  if (i >= 0) kids = sampleDetail(v, i);
  else if (s.view === "disagree") {
    const g = s.group && v.groups.all.find((x) => x.key === s.group);
    kids = g ? groupDetail(v, g) : pairsDetail(v);
  } else {
    kids = [
      el("p", {
        class: "note",
        text: s.open
          ? "Sample " + s.open + " is not among the embedded rows."
          : "Pick a sample on the left (or press j / k) to see it in full.",
      }),
    ];
  }
  const shown = (i >= 0 ? s.open : "") + "/" + s.view + "/" + s.group;
  pane.dataset.key = i >= 0 ? s.open : "";
  pane.replaceChildren(...kids);
  if (pane.dataset.shown !== shown && pane.dataset.shown) pane.scrollTop = 0;
  pane.dataset.shown = shown;
}
