/**
 * The sample explorer: the rows behind the report's figures as JSON in the
 * page, drawn into a filterable table by a small inline script (DOM nodes
 * and textContent only, so row text is never parsed as HTML).
 *
 * @module
 */
import pl from "nodejs-polars";
import { escapeHtml } from "./plot.ts";
import { mulberry32 } from "../math/rng.ts";

/** Options for {@linkcode explorerHtml}. */
export interface ExplorerOptions {
  /** Non-correct rows kept at most. @default {2000} */
  maxWrong?: number;
  /** Correct rows kept, a seeded sample. @default {300} */
  correctSample?: number;
  /** Seed of the correct sample. @default {1} */
  seed?: number;
  /** Characters kept of a reply or reasoning. @default {4000} */
  maxText?: number;
  /** Dims columns offered as filters. @default {[]} */
  dims?: readonly string[];
}

const TEXT = [
  "question",
  "expected",
  "response",
  "reasoning",
  "extracted",
  "extract_rule",
  "error_class",
  "explanation",
];
const FILTERS = ["run", "suite", "model", "template", "status"];

/** Keeps the start of a long text and says how much was cut. */
function clip(v: unknown, max: number): unknown {
  if (typeof v !== "string" || v.length <= max) return v;
  return `${v.slice(0, max)}… (${v.length - max} more characters)`;
}

/** Indices 0..n-1, `k` of them, chosen by a seeded partial shuffle. */
function sampleIndices(n: number, k: number, seed: number): number[] {
  const idx = Array.from({ length: n }, (_, i) => i);
  const rand = mulberry32(seed);
  const m = Math.min(k, n);
  for (let i = 0; i < m; i++) {
    const j = i + Math.floor(rand() * (n - i));
    [idx[i], idx[j]] = [idx[j]!, idx[i]!];
  }
  return idx.slice(0, m).sort((a, b) => a - b);
}

/**
 * Renders the explorer: a note with what is shown, filter controls, the
 * rows as JSON and the script that draws and filters them.
 *
 * @param frame The report's rows.
 * @param options Caps, seed and dims filters.
 * @returns The HTML fragment.
 */
export function explorerHtml(
  frame: pl.DataFrame,
  options: ExplorerOptions = {},
): string {
  const {
    maxWrong = 2000,
    correctSample = 300,
    seed = 1,
    maxText = 4000,
    dims = [],
  } = options;
  const has = (c: string) => frame.columns.includes(c);
  // A run column only tells runs apart when there are several.
  const several = (c: string) =>
    c !== "run" || frame.select(pl.col(c)).unique().height > 1;
  const base = FILTERS.filter((c) => has(c) && several(c));
  const dimCols = dims.filter((c, i, all) =>
    has(c) && all.indexOf(c) === i && !base.includes(c)
  );
  const filters = [...base, ...dimCols];
  const cols = [...filters, ...TEXT.filter(has)];
  const isCorrect = has("status")
    ? pl.col("status").eq(pl.lit("correct"))
    : pl.col("correct").eq(pl.lit(true));
  const picked = frame.select(
    ...cols.map((c) => pl.col(c)),
    isCorrect.fillNull(false).alias("_ok"),
  );
  const wrong = picked.filter(pl.col("_ok").not());
  const right = picked.filter(pl.col("_ok"));
  const wrongShown = wrong.head(maxWrong);
  const keep = sampleIndices(right.height, correctSample, seed);
  const rightShown = right.withRowIndex("_i")
    .filter(pl.col("_i").isIn(keep)).drop("_i");
  const rows = [
    ...wrongShown.drop("_ok").toRecords(),
    ...rightShown.drop("_ok").toRecords(),
  ]
    .map((r) => {
      const out: Record<string, unknown> = {};
      for (const c of cols) {
        const v = r[c];
        out[c] = v === null || v === undefined
          ? null
          : typeof v === "object"
          ? JSON.stringify(v)
          : clip(typeof v === "bigint" ? Number(v) : v, maxText);
      }
      return out;
    });
  const shown = rows.length;
  const note = `Showing ${shown.toLocaleString("en")} of ${
    frame.height.toLocaleString("en")
  } rows: all wrong rows up to ${maxWrong.toLocaleString("en")}${
    wrong.height > maxWrong
      ? ` (${wrong.height.toLocaleString("en")} in all; the first ${
        maxWrong.toLocaleString("en")
      } kept)`
      : ` (${wrong.height.toLocaleString("en")})`
  } and a sample of ${rightShown.height.toLocaleString("en")} correct (of ${
    right.height.toLocaleString("en")
  }, seed ${seed}).`;
  const data = JSON.stringify({
    filters,
    base,
    dims: dimCols,
    text: TEXT.filter(has),
    rows,
  })
    .replace(/</g, "\\u003c");
  const controls = filters.map((f) =>
    `<label>${escapeHtml(f)} <select data-filter="${
      escapeHtml(f)
    }"><option value="">all</option></select></label>`
  ).join(" ");
  return `<div id="explorer">
<p class="note" id="explorer-note">${escapeHtml(note)}</p>
<div class="explorer-controls">${controls} <label>search <input type="search" id="explorer-search" placeholder="text in question or reply"></label></div>
<p id="explorer-count"></p>
<div id="explorer-rows"><noscript>The explorer needs JavaScript.</noscript></div>
<script type="application/json" id="explorer-data">${data}</script>
<script>${SCRIPT}</script>
</div>`;
}

// Written by hand: a few lines of DOM code; a table library would be the
// only external resource of an otherwise standalone page.
const SCRIPT = `(function(){
var D=JSON.parse(document.getElementById("explorer-data").textContent);
var LIMIT=500,box=document.getElementById("explorer-rows");
var sels=[].slice.call(document.querySelectorAll("#explorer select[data-filter]"));
sels.forEach(function(s){var f=s.dataset.filter,seen={};
D.rows.forEach(function(r){var v=r[f];if(v!==null&&v!==undefined)seen[String(v)]=1;});
Object.keys(seen).sort().forEach(function(v){var o=document.createElement("option");o.value=v;o.textContent=v;s.appendChild(o);});
s.addEventListener("change",draw);});
var q=document.getElementById("explorer-search");q.addEventListener("input",draw);
function cell(tr,text,cls){var td=document.createElement("td");if(cls)td.className=cls;if(text!==null&&text!==undefined)td.textContent=String(text);tr.appendChild(td);return td;}
function draw(){var want=sels.map(function(s){return [s.dataset.filter,s.value];}).filter(function(p){return p[1]!=="";});
var term=q.value.toLowerCase();
var hit=D.rows.filter(function(r){for(var i=0;i<want.length;i++){if(String(r[want[i][0]])!==want[i][1])return false;}
if(!term)return true;return D.text.some(function(c){return r[c]&&String(r[c]).toLowerCase().indexOf(term)>=0;});});
var t=document.createElement("table");t.className="eval-table explorer-table";
var head=D.base.concat(["dims","question","expected","reply","extracted","rule","error class","explanation"]);
var hr=document.createElement("tr");head.forEach(function(h){var th=document.createElement("th");th.textContent=h;hr.appendChild(th);});
var th=document.createElement("thead");th.appendChild(hr);t.appendChild(th);var tb=document.createElement("tbody");
hit.slice(0,LIMIT).forEach(function(r){var tr=document.createElement("tr");tr.dataset.status=String(r.status);
D.base.forEach(function(f){var td=cell(tr,r[f]);td.dataset.col=f;});
cell(tr,D.dims.filter(function(f){return r[f]!==null&&r[f]!==undefined;}).map(function(f){return f+"="+r[f];}).join(" "),"dims");
cell(tr,r.question,"text");cell(tr,r.expected);var rep=cell(tr,null,"text");
if(r.reasoning){var d=document.createElement("details"),s=document.createElement("summary");s.textContent="reasoning";d.appendChild(s);
var pre=document.createElement("pre");pre.textContent=r.reasoning;d.appendChild(pre);rep.appendChild(d);}
var p=document.createElement("pre");p.textContent=r.response===null||r.response===undefined?"":r.response;rep.appendChild(p);
cell(tr,r.extracted);cell(tr,r.extract_rule);cell(tr,r.error_class);cell(tr,r.explanation,"text");tb.appendChild(tr);});
t.appendChild(tb);box.replaceChildren(t);
document.getElementById("explorer-count").textContent=hit.length+" matching rows"+(hit.length>LIMIT?", the first "+LIMIT+" drawn":"");}
draw();})();`;
