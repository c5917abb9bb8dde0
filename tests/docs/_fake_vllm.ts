/**
 * Stands in for `python -m vllm.entrypoints.openai.run_batch -i IN -o OUT
 * --model M` in the docs test: answers each request line through the sim
 * server at `DOCS_SIM_URL` and writes vLLM's output format (the batch
 * tests' `runBatchLikeVllm`). Like vLLM, it refuses a line whose body asks
 * for another model than the one it serves.
 */
import { runBatchLikeVllm } from "../batch/_setup.ts";

const args = Deno.args;
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};
const input = flag("-i");
const output = flag("-o");
const model = flag("--model");
const sim = Deno.env.get("DOCS_SIM_URL");
if (!input || !output || !model || !sim) {
  console.error("usage: run_batch -i IN -o OUT --model M (and DOCS_SIM_URL)");
  Deno.exit(2);
}
for (const line of (await Deno.readTextFile(input)).split("\n")) {
  if (line === "") continue;
  const asked = JSON.parse(line).body?.model;
  if (asked !== model) {
    console.error(`vLLM serves ${model}, the request asks for ${asked}`);
    Deno.exit(1);
  }
}
const n = await runBatchLikeVllm(sim, input, output);
console.log(`answered ${n} requests`);
