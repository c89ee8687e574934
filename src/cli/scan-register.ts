import { type Command, InvalidArgumentError, Option } from "commander";
import type { Config } from "../config/env.ts";
import { FAIL_ON, type FailOn } from "../core/scan/check.ts";
import { action } from "./errors.ts";

type Ctx = { config: () => Config };

type ScanCliOptions = {
  api?: string;
  format: "table" | "json" | "sarif";
  output?: string;
  failOn: FailOn[];
  offline?: boolean;
  fixPins?: boolean;
  write?: boolean;
};

function failOnList(value: string): FailOn[] {
  const kinds = value.split(",").map((k) => k.trim());
  const bad = kinds.find((k) => !(FAIL_ON as readonly string[]).includes(k));
  if (bad) throw new InvalidArgumentError(`expected ${FAIL_ON.join(", ")} (comma-separated), got "${bad}"`);
  return kinds as FailOn[];
}

function apiUrl(value: string): string {
  if (!/^https?:\/\/[^/]+/.test(value)) throw new InvalidArgumentError("expected an http(s) URL");
  return value;
}

/** `hubwatch scan`; its module (parsers, store) loads only when it runs. */
export function registerScanCommand(program: Command, ctx: Ctx): void {
  program
    .command("scan")
    .argument("[paths...]", "files or folders to scan (default: the current folder)")
    .description("find the Hub models a codebase loads and report advisories and floating references")
    .option(
      "--api <url>",
      "ask this OSV-compatible server (POST /v1/querybatch) instead of the local store",
      apiUrl,
    )
    .addOption(
      new Option("--format <format>", "report format").choices(["table", "json", "sarif"]).default("table"),
    )
    .option("--output <file>", "write the report to a file (a summary still goes to stderr)")
    .option("--fail-on <kinds>", `what exits 1: ${FAIL_ON.join(",")} (comma-separated)`, failOnList, [
      "advisory",
    ])
    .option("--offline", "never ask the Hub (tags, short shas and, with --api, heads stay unresolved)")
    .option("--fix-pins", "print a diff that pins every floating reference to its head sha")
    .option("--write", "with --fix-pins: apply the diff")
    // Usage errors exit 2, like every other error of the scan (1 means findings).
    .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))
    .addHelpText(
      "after",
      "\nExit codes: 0 clean, 1 findings (see --fail-on), 2 errors. See docs/SCAN.md for the forms found.",
    )
    .action(
      action(async (paths: string[], opts: ScanCliOptions) => {
        if (opts.write && !opts.fixPins) {
          process.stderr.write("hubwatch scan: --write only applies with --fix-pins\n");
          return 2;
        }
        const { runScan } = await import("./scan-command.ts");
        const io = { out: process.stdout, err: process.stderr, cwd: process.cwd() };
        return runScan(ctx.config(), paths, opts, io);
      }),
    );
}
