/**
 * Drives the report's sample viewer in headless Chromium (playwright-core
 * over /usr/bin/chromium): filters, per-suite dims, search, sort, counts,
 * one detail pane per suite, keyboard navigation, a shared link, the
 * disagreement view and the two-run flip list. A screenshot of each is
 * written under the test's temporary folder (kept; the paths are printed).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { launchChromium } from "./_chromium.ts";
import { writeReport } from "../../lib/mod.ts";
import { main as reportCli } from "../../lib/cli/report.ts";
import { writeFakeRun } from "../report/_fixture.ts";
import { viewerRows } from "./_viewer_fixture.ts";

/** A listed sample as the page shows it. */
interface Listed {
  key: string;
  status: string;
  cols: Record<string, string>;
}

// The little of the DOM the page functions use (Deno's types have no DOM).
interface El {
  dataset: Record<string, string>;
  textContent: string | null;
  querySelectorAll(s: string): ArrayLike<El>;
}

/**
 * Clicks a row of the list. The list draws only the rows in view and
 * redraws them a frame after it scrolls, so the row is scrolled into view
 * and the redraw waited for first: clicking straight away can land on a
 * row the redraw has just replaced, and open nothing (seen once in CI).
 */
async function clickRow(page: Page, key: string): Promise<void> {
  const row = `#vw-rows [data-key="${key}"]`;
  await page.locator(row).scrollIntoViewIfNeeded();
  await page.evaluate(() =>
    new Promise((done) => {
      const raf = (globalThis as unknown as {
        requestAnimationFrame(f: () => void): void;
      }).requestAnimationFrame;
      raf(() => raf(() => done(null)));
    })
  );
  await page.click(row);
}

function listed(page: Page): Promise<Listed[]> {
  return page.$$eval("#vw-rows [data-key]", (rows) =>
    rows.map((r) => {
      const e = r as unknown as El;
      const cols: Record<string, string> = {};
      for (const c of Array.from(e.querySelectorAll("[data-col]"))) {
        cols[c.dataset.col ?? ""] = c.textContent ?? "";
      }
      return { key: e.dataset.key ?? "", status: e.dataset.status ?? "", cols };
    }));
}

async function count(page: Page): Promise<number> {
  const text = await page.textContent("#vw-count") ?? "";
  const m = /^([\d,]+) (of|questions)/.exec(text);
  assert.ok(m, `count line: ${text}`);
  return Number(m[1]!.replace(/,/g, ""));
}

/**
 * The key of the sample in the detail pane, once it shows `want` (or, with
 * no `want`, any sample) or after 5 s: the pane renders after the click or
 * key event has returned (CI once read it empty in between).
 */
async function detailKey(page: Page, want?: string): Promise<string> {
  await page.waitForSelector(
    want === undefined
      ? '#sample-detail[data-key]:not([data-key=""])'
      : `#sample-detail[data-key=${JSON.stringify(want)}]`,
    { state: "attached", timeout: 30_000 },
  ).catch(() => {}); // the assertion after says what it showed instead
  return await page.getAttribute("#sample-detail", "data-key") ?? "";
}

Deno.test("the sample viewer filters, opens, navigates, shares and compares samples in headless Chromium", async (t) => {
  const tmp = await Deno.makeTempDir({ prefix: "viewer-browser-" });
  const shots = join(tmp, "screenshots");
  await Deno.mkdir(shots);
  const shot = async (page: Page, name: string) => {
    const path = join(shots, `${name}.png`);
    await page.screenshot({ path });
    assert.ok((await Deno.stat(path)).size > 5_000);
    console.log(`screenshot: ${path}`);
  };
  const rowsA = viewerRows("run-a");
  const rowsB = viewerRows("run-b", true);
  const dirA = await writeFakeRun(tmp, "run-a", rowsA);
  const dirB = await writeFakeRun(tmp, "run-b", rowsB);
  const report = await writeReport(dirA);
  const context = await launchChromium(join(tmp, "profile"), {
    width: 1400,
    height: 900,
  });
  const errors: string[] = [];
  const open = async (url: string) => {
    const page = await context.newPage();
    page.on("pageerror", (e) => errors.push(String(e)));
    // Nothing but the file itself may load: the page is self-contained.
    page.on("request", (r) => {
      if (!r.url().startsWith("file://")) errors.push(`request ${r.url()}`);
    });
    await page.goto(url, { waitUntil: "load" });
    await page.waitForSelector("#viewer[data-ready=true]");
    return page;
  };
  try {
    const page = await open(`file://${report}`);
    await page.locator("#viewer").scrollIntoViewIfNeeded();

    await t.step(
      "lists every row with its data-key and counts them",
      async () => {
        assert.equal(await count(page), rowsA.length);
        const all = await listed(page);
        assert.ok(all.length > 20, `rows drawn: ${all.length}`);
        const keys = new Set(rowsA.map((r) => r.key));
        assert.ok(all.every((r) => keys.has(r.key)));
        assert.match(
          await page.textContent("#viewer-note") ?? "",
          /All 48 rows embedded/,
        );
      },
    );

    await t.step("filters by status and model, with the count", async () => {
      await page.selectOption('#viewer select[data-filter="status"]', "wrong");
      await page.selectOption(
        '#viewer select[data-filter="model"]',
        "sim-weak",
      );
      const want = rowsA.filter((r) =>
        r.status === "wrong" && r.model === "sim-weak"
      );
      const shown = await listed(page);
      assert.equal(await count(page), want.length);
      assert.deepEqual(
        shown.map((r) => r.key).sort(),
        want.map((r) => r.key).sort(),
      );
      assert.ok(
        shown.every((r) => r.status === "wrong" && r.cols.model === "sim-weak"),
      );
      await shot(page, "1-filtered");
      await page.click("#vw-reset");
      assert.equal(await count(page), rowsA.length);
    });

    await t.step(
      "offers each suite's own dims: arithmetic's level is not C-Eval's",
      async () => {
        await page.selectOption(
          '#viewer select[data-filter="suite"]',
          "arithmetic",
        );
        const sel = '#viewer select[data-filter="d:arithmetic:level"]';
        assert.ok(await page.isVisible(sel));
        assert.equal(
          await page.isVisible('#viewer select[data-filter="d:ceval:level"]'),
          false,
        );
        const options = await page.$$eval(
          `${sel} option`,
          (os) => os.map((o) => (o as unknown as { value: string }).value),
        );
        assert.deepEqual(options, ["", "d2", "d3"]);
        await page.selectOption(sel, "d2");
        const shown = await listed(page);
        const want = rowsA.filter((r) =>
          r.suite === "arithmetic" && r.dims.level === "d2"
        );
        assert.equal(await count(page), want.length);
        assert.ok(shown.every((r) => r.cols["d:arithmetic:level"] === "d2"));
        await page.click("#vw-reset");
      },
    );

    await t.step("searches text and regular expressions", async () => {
      await page.fill("#vw-search", "导数");
      assert.equal(
        await count(page),
        rowsA.filter((r) => r.suite === "ceval").length,
      );
      await page.check("#vw-regex");
      await page.fill("#vw-search", "^What is 4[07] \\+");
      const want = rowsA.filter((r) => /^What is 4[07] \+/i.test(r.question));
      assert.ok(want.length > 0);
      assert.equal(await count(page), want.length);
      await page.fill("#vw-search", "(unclosed");
      assert.match(
        await page.textContent("#vw-count") ?? "",
        /not a regular expression/,
      );
      await page.click("#vw-reset");
      assert.equal(await page.isChecked("#vw-regex"), false);
    });

    await t.step("sorts by a column, both ways", async () => {
      await page.click('#viewer [data-sort="latency_ms"]');
      const up = (await listed(page)).map((r) => Number(r.cols.latency_ms));
      assert.deepEqual(up, [...up].sort((a, b) => a - b));
      await page.click('#viewer [data-sort="latency_ms"]');
      const down = (await listed(page)).map((r) => Number(r.cols.latency_ms));
      assert.deepEqual(down, [...down].sort((a, b) => b - a));
      assert.notDeepEqual(up.slice(0, 5), down.slice(0, 5));
      await page.click("#vw-reset");
    });

    await t.step(
      "opens one sample of each suite in the detail pane",
      async () => {
        const cases: [string, (text: string) => void][] = [
          ["arithmetic", (text) => {
            assert.match(text, /error class\s*digit/);
            assert.match(text, /expected\s+\d+\ngot\s+\d+\n\s+\^/);
          }],
          ["linalg", (text) => {
            assert.match(text, /Forensics/);
            assert.match(text, /label\s*sign_error/);
            assert.match(text, /stage\s*2/);
          }],
          ["ceval", (text) => {
            assert.match(text, /Options/);
            assert.match(text, /picked\s*C/);
            assert.match(text, /key\s*B/);
          }],
          ["code", (text) => {
            assert.match(text, /Tests/);
            assert.match(text, /first failing/);
            assert.match(text, /\["\(\[\)\]"\]/); // test 1's input, from the bank
            assert.match(text, /status\s*ok/);
          }],
        ];
        for (const [suite, check] of cases) {
          const r = rowsA.find((x) =>
            x.suite === suite && x.status === "wrong"
          )!;
          await page.selectOption('#viewer select[data-filter="suite"]', suite);
          await clickRow(page, r.key);
          assert.equal(await detailKey(page, r.key), r.key);
          const text = await page.innerText("#sample-detail");
          assert.ok(
            text.includes(r.question.split("\n")[0]!),
            `${suite}: question`,
          );
          assert.ok(text.includes(r.expected), `${suite}: expected`);
          assert.ok(
            text.includes(r.explanation ?? "?"),
            `${suite}: explanation`,
          );
          const mark =
            await page.textContent("#sample-detail [data-part=reply] mark") ??
              "";
          assert.ok(mark.length > 0, `${suite}: the extracted span is marked`);
          assert.ok(
            r.response.includes(mark) &&
              (mark.includes(r.extracted!) || suite === "code"),
            `${suite}: mark ${mark}`,
          );
          // The prompt as sent: each message with its role, whole; a row
          // without one (written before rows kept it) shows the question.
          const part = "#sample-detail [data-part=prompt]";
          const shown = await page.$$eval(
            `${part} .vw-msg`,
            (ms) =>
              ms.map((m) => {
                const e = m as unknown as El;
                return [
                  e.dataset.role ?? "",
                  e.querySelectorAll("pre")[0]?.textContent ?? "",
                ];
              }),
          );
          if (r.prompt === null) {
            assert.deepEqual(shown, [], `${suite}: no messages`);
            assert.match(await page.innerText(part), /written before/);
          } else {
            const sent = JSON.parse(r.prompt) as {
              role: string;
              content: string;
            }[];
            assert.deepEqual(
              shown,
              sent.map((m) => [m.role, m.content]),
              `${suite}: the messages as sent`,
            );
            const user = sent.find((m) => m.role === "user")!.content;
            assert.ok(text.includes(user.split("\n").at(-1)!), suite);
          }
          check(text);
          await shot(page, `2-detail-${suite}`);
        }
        await page.click("#vw-reset");
      },
    );

    await t.step(
      "shows what the rules and the extraction judge read of a hedged reply",
      async () => {
        const r = rowsA.find((x) => x.extract_rule === "judge")!;
        await clickRow(page, r.key);
        assert.equal(await detailKey(page, r.key), r.key);
        const text = await page.innerText(
          "#sample-detail [data-part=extracted]",
        );
        assert.match(text, /rule\s*judge/);
        assert.ok(
          text.includes(`the rules read\t${r.metrics.rule_extract}`) ||
            text.includes(`the rules read\n${r.metrics.rule_extract}`),
          text,
        );
        assert.match(text, new RegExp(`the judge read\\s*${r.extracted}`));
        await page.click("#vw-reset");
      },
    );

    await t.step(
      "moves to the next and previous sample with j / k and the arrows",
      async () => {
        await page.selectOption(
          '#viewer select[data-filter="model"]',
          "sim-good",
        );
        const order = (await listed(page)).map((r) => r.key);
        await clickRow(page, order[0]!);
        await page.keyboard.press("j");
        assert.equal(await detailKey(page, order[1]), order[1]);
        await page.keyboard.press("ArrowDown");
        assert.equal(await detailKey(page, order[2]), order[2]);
        await page.keyboard.press("k");
        assert.equal(await detailKey(page, order[1]), order[1]);
        assert.equal(
          await page.getAttribute(
            `#vw-rows [data-key="${order[1]}"]`,
            "aria-selected",
          ),
          "true",
        );
        await shot(page, "3-keyboard");
      },
    );

    await t.step(
      "keeps the view in the URL: a shared link opens the same view",
      async () => {
        await page.selectOption(
          '#viewer select[data-filter="status"]',
          "!correct",
        );
        await page.fill("#vw-search", "answer");
        await page.click('#viewer [data-sort="question_id"]');
        const target = (await listed(page))[0]!.key;
        await clickRow(page, target);
        const url = page.url();
        assert.match(url, /#explore\?/);
        assert.match(url, /f\.model=sim-good/);
        assert.match(url, /open=/);
        const before = {
          n: await count(page),
          rows: (await listed(page)).map((r) => r.key),
        };
        const other = await open(url);
        assert.equal(await count(other), before.n);
        assert.deepEqual((await listed(other)).map((r) => r.key), before.rows);
        assert.equal(await detailKey(other), target);
        assert.equal(
          await other.inputValue('#viewer select[data-filter="model"]'),
          "sim-good",
        );
        assert.equal(await other.inputValue("#vw-search"), "answer");
        await shot(other, "4-shared-link");
        await other.close();
        await page.click("#vw-reset");
        assert.doesNotMatch(page.url(), /f\.model/);
      },
    );

    await t.step(
      "lists the questions where the models disagree, side by side",
      async () => {
        await page.click('#viewer [data-view="disagree"]');
        // Pairs by (suite, question, template, sample) whose verdicts differ.
        const byQ = new Map<string, boolean[]>();
        for (const r of rowsA) {
          const k = [r.suite, r.question_id, r.template, r.sample].join("|");
          byQ.set(k, [...(byQ.get(k) ?? []), r.correct]);
        }
        const differ = [...byQ.values()].filter((c) =>
          c.some(Boolean) && !c.every(Boolean)
        );
        assert.equal(await count(page), differ.length);
        assert.match(
          await page.textContent("#vw-count") ?? "",
          /models got different verdicts/,
        );
        assert.match(
          await page.innerText("#vw-pairs"),
          /sim-good\s+sim-weak\s+24\s+8\s+1/,
        );
        const groups = await page.$$eval(
          "#vw-rows [data-group]",
          (g) => g.length,
        );
        assert.equal(groups, differ.length);
        await page.click("#vw-rows [data-group] >> nth=0");
        const members = await page.$$eval(
          "#sample-detail .vw-sidecol",
          (cols) => cols.map((c) => (c as unknown as El).dataset.member),
        );
        assert.deepEqual(members, ["sim-good", "sim-weak"]);
        assert.match(page.url(), /view=disagree/);
        await shot(page, "5-disagree");
        await page.click("#sample-detail .vw-sidecol >> nth=1 >> button");
        assert.match(await detailKey(page), /^sim-weak\|/);
        await page.click("#vw-reset");
      },
    );

    await t.step(
      "two runs: the CLI prints the flips and the viewer lists them",
      async () => {
        const out = join(tmp, "two.html");
        const lines: string[] = [];
        const code = await reportCli(
          [dirA, dirB, "--out", out],
          (l) => lines.push(l),
          (l) => lines.push(l),
        );
        assert.equal(code, 0, lines.join("\n"));
        const text = lines.join("\n");
        assert.match(text, /Verdicts flipped from run-a to run-b/);
        assert.match(text, /arithmetic\s+sim-weak\s+6\s+1\s+1\s+1\.000/);
        assert.match(text, /fixed arithmetic\/add\/d3\/s1\/0\/en\|cot\|0/);
        const two = await open(`file://${out}`);
        const table = await two.innerText("#run-flips");
        assert.match(table, /code\s+sim-weak\s+6\s+1\s+1/);
        await two.click(
          '#run-flips tr[data-suite="arithmetic"][data-model="sim-weak"] a',
        );
        await two.waitForSelector('#viewer[data-view="disagree"]');
        assert.equal(await two.inputValue("#vw-by"), "run");
        assert.equal(await count(two), 2);
        const flipped = await two.$$eval(
          "#vw-rows [data-group]",
          (g) => g.map((x) => (x as unknown as El).textContent ?? ""),
        );
        assert.ok(flipped.some((g) => g.includes("arithmetic/add/d3/s1/0/en")));
        assert.ok(flipped.some((g) => g.includes("arithmetic/add/d3/s1/4/en")));
        await shot(two, "6-two-runs");
        await two.close();
      },
    );
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await Deno.remove(join(tmp, "profile"), { recursive: true });
    console.log(`screenshots kept in ${shots}`);
  }
});
