// `hubwatch estimate OWNER/NAME[@REV]` against the replay hub: config, index and ranged header reads only.
import { describe, expect, it } from "vitest";
import { GATED_TOKEN } from "../../src/replay-hub/index.ts";
import { estimateCli } from "../helpers/estimate-cli.ts";
import { useReplayHub } from "../helpers/replay-hub.ts";

const hub = useReplayHub();

const run = estimateCli(() => hub.url, { localFiles: false });

describe("hubwatch estimate OWNER/NAME[@REV]", () => {
  it("estimates from config.json and the shards' headers, never reading a weight body", async () => {
    const r = await run("Qwen/Qwen3-1.7B", { json: true });
    expect(r.code).toBe(0);
    const e = JSON.parse(r.out);
    expect(e.checkpoint.source).toBe("headers");
    expect(e.params.source).toBe("structure");
    expect(e.params.total + e.checkpoint.extra_scalars).toBe(e.checkpoint.compared_total);
    expect(e.weights.source).toBe("headers");
    const fileReads = hub.requestLog.filter((l) => l.route === "resolve" && l.path.endsWith(".safetensors"));
    expect(fileReads.length).toBeGreaterThan(0);
    // Every shard read is a Range request of the 8-byte length or the header, far below a body's size.
    for (const l of fileReads) {
      expect(l.range).toBeTruthy();
      expect(l.bytes).toBeLessThan(1_000_000);
    }
  });

  it("takes a revision after @ and titles the Markdown page with the repo id", async () => {
    const sha = hub.headSha("Qwen/Qwen3-4B-Instruct-2507");
    const r = await run(`Qwen/Qwen3-4B-Instruct-2507@${sha}`, { markdown: true });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^# Qwen/Qwen3-4B-Instruct-2507@${sha}: `));
  });

  it("a gated repo without a token, a missing repo and a missing revision: one line, exit 2", async () => {
    const gated = await run("meta-llama/Llama-3.2-3B", {});
    expect(gated.code).toBe(2);
    expect(gated.err).toMatch(/needs a token with access \(set HF_TOKEN\)/);
    expect(gated.err.trim().split("\n")).toHaveLength(1);
    const missing = await run("hubwatch-fixtures/deleted-model", {});
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no such repo/);
    const rev = await run("Qwen/Qwen3-1.7B@no-such-branch", {});
    expect(rev.code).toBe(2);
    expect(rev.err.trim().split("\n")).toHaveLength(1);
  });

  it("a gated repo with a granted token", async () => {
    const r = await run("meta-llama/Llama-3.2-3B", { json: true }, GATED_TOKEN);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).checkpoint.source).toBe("headers");
  });
});
