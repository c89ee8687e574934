import { nodeEstimateIo, runEstimateCommand } from "../../src/cli/estimate-command.ts";

type EstimateRun = { code: number; out: string; err: string };

/** `hubwatch estimate ARG` against a replay hub at `hubUrl()`, with its stdout and stderr captured. */
export function estimateCli(hubUrl: () => string) {
  return async (arg: string, opts: { json?: boolean; markdown?: boolean } = {}): Promise<EstimateRun> => {
    let out = "";
    let err = "";
    const io = {
      ...nodeEstimateIo(),
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (err += s) },
    };
    const code = await runEstimateCommand(arg, opts, io, () => ({ hubUrl: hubUrl() }));
    return { code, out, err };
  };
}
