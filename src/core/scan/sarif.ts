import type { Fix, Location, Log, ReportingDescriptor, Result } from "sarif";
import type { CheckedReference, ScanReport } from "./check.ts";

const SARIF_SCHEMA_URI =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
export const FLOATING_RULE_ID = "hubwatch/floating-model-reference";

type SarifOptions = {
  toolVersion: string;
  /** Where an advisory is described (the API's `/v1/vulns/{id}`, or the feed's `{id}.json`); null: none. */
  advisoryUrl?: (id: string) => string | null;
};

const FLOATING_RULE: ReportingDescriptor = {
  id: FLOATING_RULE_ID,
  name: "FloatingModelReference",
  shortDescription: { text: "A Hub model is loaded without a pinned revision" },
  fullDescription: {
    text: "The reference loads whatever the repo's main branch holds at run time, so an upstream push changes the model (parameters, memory, tokenizer, chat template) without a change in this codebase. Pin it to a commit sha.",
  },
  defaultConfiguration: { level: "warning" },
  help: {
    text: "Pin the reference to a commit: `hubwatch scan --fix-pins` prints the edit, `--write` applies it.",
  },
};

function location(ref: CheckedReference): Location {
  return {
    physicalLocation: {
      artifactLocation: { uri: ref.file, uriBaseId: "%SRCROOT%" },
      region: {
        startLine: ref.line,
        startColumn: ref.column,
        endLine: ref.endLine,
        endColumn: ref.endColumn,
      },
    },
  };
}

function short(sha: string | null): string {
  return sha ? sha.slice(0, 12) : "?";
}

function advisoryRule(id: string, summary: string | null, url: string | null): ReportingDescriptor {
  const rule: ReportingDescriptor = {
    id,
    shortDescription: { text: summary ?? id },
    defaultConfiguration: { level: "error" },
    properties: { tags: ["hubwatch", "model"] },
  };
  if (url) rule.helpUri = url;
  return rule;
}

function pinFix(ref: CheckedReference): Fix[] {
  if (!ref.pin || !ref.pinTo) return [];
  const { start, end, before, after } = ref.pin;
  return [
    {
      description: { text: `Pin ${ref.repo} to ${ref.pinTo}` },
      artifactChanges: [
        {
          artifactLocation: { uri: ref.file, uriBaseId: "%SRCROOT%" },
          replacements: [
            {
              deletedRegion: { charOffset: start, charLength: end - start },
              insertedContent: { text: `${before}${ref.pinTo}${after}` },
            },
          ],
        },
      ],
    },
  ];
}

function floatingResult(ref: CheckedReference, ruleIndex: number): Result {
  const where = ref.revision ? `the moving branch "${ref.revision}"` : "no revision";
  const advice = ref.pinTo
    ? `pin it to ${ref.pinTo}, the head hubwatch knows`
    : "its head is not known to hubwatch (watch the repo to learn it)";
  const result: Result = {
    ruleId: FLOATING_RULE_ID,
    ruleIndex,
    level: "warning",
    message: { text: `${ref.repo} is loaded with ${where} (${ref.context}): ${advice}.` },
    locations: [location(ref)],
    properties: { repo: ref.repo, revision: ref.revision, pinTo: ref.pinTo },
  };
  const fixes = pinFix(ref);
  if (fixes.length > 0) result.fixes = fixes;
  return result;
}

/**
 * SARIF 2.1.0 for code scanning: one result per advisory that covers a reference's revision (rule =
 * the advisory id, level error) and one per floating reference (level warning, with the pin as a fix
 * when known), each on the reference's file, line and columns.
 */
export function toSarif(report: ScanReport, opts: SarifOptions): Log {
  const rules: ReportingDescriptor[] = [FLOATING_RULE];
  const ruleIndex = new Map<string, number>([[FLOATING_RULE_ID, 0]]);
  const results: Result[] = [];
  for (const ref of report.references) {
    for (const hit of ref.advisories) {
      if (!ruleIndex.has(hit.id)) {
        ruleIndex.set(hit.id, rules.length);
        rules.push(advisoryRule(hit.id, hit.summary, opts.advisoryUrl?.(hit.id) ?? null));
      }
      results.push({
        ruleId: hit.id,
        ruleIndex: ruleIndex.get(hit.id) ?? 0,
        level: "error",
        message: {
          text: `${ref.repo} at ${short(ref.sha)} is affected by ${hit.id}: ${hit.summary ?? "see the advisory"}.`,
        },
        locations: [location(ref)],
        properties: { repo: ref.repo, revision: ref.revision, sha: ref.sha },
      });
    }
    if (ref.floating) results.push(floatingResult(ref, 0));
  }
  return {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "hubwatch", version: opts.toolVersion, rules } },
        results,
        columnKind: "utf16CodeUnits",
      },
    ],
  };
}
