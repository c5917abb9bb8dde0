// The sample viewer's script, part 5 of 6: the detail pane.
// html.ts joins the parts, in order, inside one function: they share
// its scope, so names defined here are used in the other parts.
// deno-lint-ignore-file no-unused-vars

// ---- the detail pane ----
function block(title, part, ...kids) {
  return el(
    "section",
    { class: "vw-part", "data-part": part },
    el("h4", { text: title }),
    ...kids,
  );
}
function pre(text, cls) {
  return el("pre", { class: cls || "", text: text === null ? "" : text });
}
function highlighted(text, span, cls) {
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
function spanOf(i, reply) {
  const s = D.spans[i];
  if (s) return s;
  const x = val("extracted", i);
  if (x === null || x === "" || !reply) return null;
  const at = reply.lastIndexOf(x);
  return at < 0 ? null : [at, at + x.length];
}
function fields(pairs) {
  const dl = el("dl", { class: "vw-fields" });
  for (const [k, v] of pairs) {
    if (v === null || v === undefined || v === "") continue;
    dl.append(el("dt", { text: k }), el("dd", { text: String(v) }));
  }
  return dl;
}
function suitePart(p) {
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
function messages(json) {
  let list;
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
function promptPart(i) {
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
      ...messages(prompt),
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
    ...(transcript ? messages(transcript) : []),
  );
}
function sampleDetail(i) {
  const key = val("key", i);
  const st = val("status", i);
  const reply = val("response", i) || "";
  const code = reply.includes("```") ? "code" : "wrap";
  const parts = [
    el("h3", { text: val("model", i) + " · " + val("question_id", i) }),
    fields([
      ["key", key],
      ["suite", val("suite", i)],
      ["template", val("template", i)],
      ["sample", val("sample", i)],
      ["run", runs.length > 1 ? val("run", i) : null],
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
    promptPart(i),
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
    block("Reply", "reply", highlighted(reply, spanOf(i, reply), code)),
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
        : pre(x, x.includes("\n") ? "code" : "wrap"),
    ),
  );
  parts.push(block("Expected", "expected", pre(val("expected", i), "wrap")));
  for (const p of D.detail[i] || []) parts.push(suitePart(JSON.parse(S[p])));
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
function groupDetail(g) {
  const cols = [...g.members.entries()].sort((a, b) =>
    a[0].localeCompare(b[0], "en", { numeric: true })
  );
  const i0 = g.first;
  const box = el("div", { class: "vw-side" });
  for (const [m, i] of cols) {
    const st = val("status", i);
    const reply = val("response", i) || "";
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
            onclick: () => open(val("key", i)),
          }),
        ),
        el("p", {}, el("span", { class: "st st-" + st, text: st })),
        fields([["extracted", val("extracted", i)], [
          "explanation",
          val("explanation", i),
        ]]),
        highlighted(
          reply,
          spanOf(i, reply),
          reply.includes("```") ? "code" : "wrap",
        ),
      ),
    );
  }
  return [
    el("h3", { text: val("question_id", i0) }),
    fields([
      ["suite", val("suite", i0)],
      ["model", state.by !== "model" ? val("model", i0) : null],
      ["template", state.by !== "template" ? val("template", i0) : null],
      ["sample", val("sample", i0)],
    ]),
    block("Question", "prompt", pre(val("question", i0), "wrap")),
    block("Expected", "expected", pre(val("expected", i0), "wrap")),
    block("Side by side", "side", box),
  ];
}
function pairsDetail() {
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
      for (const g of view.all) {
        const ia = g.members.get(members[a]), ib = g.members.get(members[b]);
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
            members[a],
            members[b],
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
  return [
    el("h3", { text: "Pairs of " + AXES[state.by] }),
    el("p", {
      class: "note",
      text: "Over the questions both answered (same suite, question, " +
        GROUP_FIELDS.filter((f) =>
          f !== state.by && f !== "suite" && f !== "question_id"
        ).join(", ") +
        "), with the filters above; the exact McNemar test on the pairs only one got right. Pick a question on the left to see the replies side by side.",
    }),
    el("div", { class: "vw-scrollx" }, t),
  ];
}
function drawDetail() {
  let kids;
  const i = state.open ? indexOfKey(state.open) : -1;
  if (i >= 0) kids = sampleDetail(i);
  else if (state.view === "disagree") {
    const g = state.group && view.all.find((x) => x.key === state.group);
    kids = g ? groupDetail(g) : pairsDetail();
  } else {
    kids = [
      el("p", {
        class: "note",
        text: state.open
          ? "Sample " + state.open + " is not among the embedded rows."
          : "Pick a sample on the left (or press j / k) to see it in full.",
      }),
    ];
  }
  const shown = (i >= 0 ? state.open : "") + "/" + state.view + "/" +
    state.group;
  detail.dataset.key = i >= 0 ? state.open : "";
  detail.replaceChildren(...kids);
  if (detail.dataset.shown !== shown && detail.dataset.shown) {
    detail.scrollTop = 0;
  }
  detail.dataset.shown = shown;
}
