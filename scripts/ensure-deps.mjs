// Lets `npm run demo` and `npm test` work on a fresh clone: installs the locked dependencies once.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

if (!existsSync(new URL("../node_modules/.package-lock.json", import.meta.url))) {
  console.error("hubwatch: installing dependencies (npm ci), once...");
  execSync("npm ci --no-audit --no-fund", { stdio: "inherit", cwd: new URL("..", import.meta.url) });
}
