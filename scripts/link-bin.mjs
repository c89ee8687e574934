// npm does not link a package's own bin into its node_modules/.bin; do it so `npx hubwatch` works in a clone.
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";

const binDir = new URL("../node_modules/.bin/", import.meta.url);
if (existsSync(new URL("../node_modules/", import.meta.url))) {
  mkdirSync(binDir, { recursive: true });
  const link = new URL("hubwatch", binDir);
  rmSync(link, { force: true });
  symlinkSync("../../bin/hubwatch.js", link);
}
