// `hubwatch watch add ADAPTER` offers to watch the adapter's base (read from its adapter_config.json on the
// Hub, before any poll); `--with-base` watches it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { watchCommand } from "../../src/cli/store-commands.ts";
import { loadConfig } from "../../src/config/env.ts";
import { PEFT_BASE, PEFT_REPO } from "../../src/replay-hub/fixtures/repos-peft.ts";
import { useReplayHub } from "../helpers/replay-hub.ts";

const hub = useReplayHub();
const dirs: string[] = [];

afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function watch(names: string[], withBase: boolean, verb: "add" | "ls" = "add") {
  const dir = dirs[0] ?? (await mkdtemp(join(tmpdir(), "hubwatch-watch-")));
  if (!dirs.includes(dir)) dirs.push(dir);
  const config = loadConfig({ HF_ENDPOINT: hub.url, HUBWATCH_DATA_DIR: dir, LOG_LEVEL: "silent" });
  let out = "";
  const code = await watchCommand(config, verb, names, { write: (s: string) => (out += s) }, { withBase });
  return { code, out };
}

describe("hubwatch watch add on a PEFT adapter", () => {
  it("offers its base in one line; a repo that is not an adapter gets no offer", async () => {
    const r = await watch([PEFT_REPO, "openai-community/gpt2"], false);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      [
        `watching ${PEFT_REPO}`,
        `${PEFT_REPO} is a PEFT adapter of ${PEFT_BASE}; to hear when its base changes: hubwatch watch add ${PEFT_BASE} (or add --with-base)`,
        "watching openai-community/gpt2",
        "",
      ].join("\n"),
    );
  }, 60_000);

  it("--with-base watches the base too; once watched, no offer", async () => {
    const r = await watch([PEFT_REPO], true);
    expect(r.out).toBe(`watching ${PEFT_REPO}\nwatching ${PEFT_BASE} (the base of ${PEFT_REPO})\n`);
    const again = await watch([PEFT_REPO], false);
    expect(again.out).toBe(`already watching ${PEFT_REPO}\n`);
    const ls = await watch([], false, "ls");
    const names = ls.out
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => l.split("\t")[0]);
    expect(names.sort()).toEqual([PEFT_BASE, PEFT_REPO].sort());
  }, 60_000);
});
