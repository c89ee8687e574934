/**
 * Import rules for `npm run lint` (dependency-cruiser): no cycles, and the layers: src/core is pure (no
 * imports of ours from outside it, no I/O modules), services never import the HTTP layer, and routes reach
 * data through services. Test files may import test helpers from anywhere.
 */
const notTests = "\\.test\\.ts$";
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle: split the shared part into its own module.",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-is-pure",
      severity: "error",
      comment: "src/core holds pure code: it imports nothing of ours outside src/core, and no I/O modules.",
      from: { path: "^src/core/", pathNot: notTests },
      to: {
        pathNot: ["^src/core/", "^node_modules/"],
        dependencyTypesNot: [
          "core",
          "npm",
          "npm-dev",
          "npm-optional",
          "npm-peer",
          "npm-bundled",
          "npm-no-pkg",
        ],
      },
    },
    {
      name: "core-no-io",
      severity: "error",
      comment: "src/core does no I/O: no fs, net, http, child_process, pg, ioredis or bullmq.",
      from: { path: "^src/core/", pathNot: notTests },
      to: {
        path: "^(fs|node:fs|fs/promises|node:fs/promises|net|node:net|http|node:http|https|node:https|child_process|node:child_process)$|node_modules/(pg|ioredis|bullmq|@electric-sql)/",
      },
    },
    {
      name: "services-not-http",
      severity: "error",
      comment:
        "Services never import the HTTP layer (src/http); shared helpers belong in src/core or src/lib.",
      from: { path: "^src/services/" },
      to: { path: "^src/http/" },
    },
    {
      name: "routes-through-services",
      severity: "error",
      comment:
        "Routes reach data through services (src/services), never src/repositories or src/db directly; type-only imports are fine.",
      from: { path: "^src/http/routes/", pathNot: notTests },
      to: { path: "^src/(repositories|db)/", dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
    exclude: { path: "^(node_modules|dist|coverage)/" },
  },
};
