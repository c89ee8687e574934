import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { demoCommand } from "../../src/cli/demo-command.ts";
import { loadConfig } from "../../src/config/env.ts";
import { validateEndpointBadge } from "../../src/core/badge/validate.ts";
import { validateOsvRecord } from "../../src/core/osv/validate.ts";

// `npm run demo`, in process: exit 0, the summary's cost lines, and every file under out/ valid.
describe("demo", () => {
  let dir = "";
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("processes the replay hub's repos and writes valid OSV records and badges", async () => {
    dir = await mkdtemp(join(tmpdir(), "hubwatch-demo-"));
    let text = "";
    const sink = {
      isTTY: false,
      write(s: string) {
        text += s;
        return true;
      },
    } as unknown as NodeJS.WriteStream;
    const code = await demoCommand(loadConfig({ LOG_LEVEL: "silent" }), { out: dir }, sink);
    expect(code, text).toBe(0);
    // One owner listing for the Qwen repos, one commits page for each repo alone under its owner.
    expect(text).toMatch(/hub, idle +8 requests for 12 repos with nothing new \(commits 7, models 1\)/);
    expect(text).toMatch(
      /^repo kinds +diffusers 1, gguf 1, none 1, peft 1, sentence-transformers 1, transformers 6$/m,
    );
    // Estimate advisories, plus prompt changes (Qwen2.5-7B-Instruct, QwQ-32B, the GGUF repo's re-made
    // quants) and EOS changes (QwQ-32B's fix, Qwen3-0.6B's deleted generation_config.json, the GGUF EOS fix).
    // And BGE's parameter count, grown by a Dense module; the SD 1.5 pipeline's, its VAE swapped for TAESD; the
    // LoRA adapter's, retrained at rank 32.
    expect(text).toMatch(/advisories +13 opened, 2 closed, 11 open/);
    expect(text).toMatch(
      /^ {2}prompt +Qwen\/QwQ-32B@976055f: rendered prompt changed: .*\(whitespace_answers\)$/m,
    );
    expect(text).toMatch(
      /^ {2}eos +Qwen\/QwQ-32B@\w{7}: EOS token changed: generation_config.json eos_token_id 151643 -> \[151645,151643\]$/m,
    );
    // The local subscriber got every advisory event, each once and verified, and the revision changes.
    expect(text).toMatch(
      /^webhooks +\d+ event\(s\) received by a local subscriber, each once, signature verified \(advisory\.closed 2, advisory\.opened 13, .*revision\.changed \d+.*\); 0 duplicate\(s\), 0 unverified$/m,
    );
    expect(text).toMatch(/^ {2}advisory\.opened +x_HUBWATCH-\d{4}-\d{4} Qwen\/QwQ-32B: /m);
    expect(text).toMatch(/^ {2}revision\.changed +Qwen\/QwQ-32B@\w{8} \[eos_token\]$/m);
    // The adapter's subscribers hear of its base's new revision.
    expect(text).toMatch(
      /^ {2}base\.changed +hubwatch-peft\/Qwen2\.5-7B-Instruct-MCQ-LoRA: your adapter's base changed: Qwen\/Qwen2\.5-7B-Instruct@\w{7}: /m,
    );
    const osv = await readdir(join(dir, "osv"));
    expect(osv).toHaveLength(13);
    for (const f of osv)
      expect(validateOsvRecord(JSON.parse(await readFile(join(dir, "osv", f), "utf8"))).errors).toEqual([]);
    const badges = (await readdir(join(dir, "badges"), { recursive: true })).filter((f) =>
      f.endsWith(".json"),
    );
    expect(badges.length).toBeGreaterThan(0);
    for (const f of badges) {
      expect(
        validateEndpointBadge(JSON.parse(await readFile(join(dir, "badges", f), "utf8"))).errors,
      ).toEqual([]);
    }
  }, 300_000);
});
