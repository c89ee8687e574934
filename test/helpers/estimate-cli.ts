import { type EstimateIo, nodeEstimateIo, runEstimateCommand } from "../../src/cli/estimate-command.ts";

/** Estimate IO over `base` (the real file system by default) with stdout and stderr captured. */
export function captureEstimateIo(base: Omit<EstimateIo, "stdout" | "stderr"> = nodeEstimateIo()) {
  let out = "";
  let err = "";
  const io: EstimateIo = {
    ...base,
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  };
  return { io, out: () => out, err: () => err };
}

/** `hubwatch estimate ARG` against a replay hub at `hubUrl()`, with its stdout and stderr captured. */
export function estimateCli(hubUrl: () => string, opts: { localFiles?: boolean } = {}) {
  return async (arg: string, flags: { json?: boolean; markdown?: boolean } = {}, accessToken?: string) => {
    const c = captureEstimateIo(opts.localFiles === false ? NO_LOCAL_FILES : nodeEstimateIo());
    const code = await runEstimateCommand(arg, flags, c.io, () => ({ hubUrl: hubUrl(), accessToken }));
    return { code, out: c.out(), err: c.err() };
  };
}

/** IO for runs that must reach only the Hub: any local file access fails the run. */
const NO_LOCAL_FILES: Omit<EstimateIo, "stdout" | "stderr"> = {
  readFile: async () => {
    throw new Error("no local files");
  },
  readHead: async () => new Uint8Array(),
  readDir: async () => [],
  isDirectory: async (): Promise<boolean> => {
    throw new Error("not a local path");
  },
};
