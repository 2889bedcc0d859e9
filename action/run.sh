#!/usr/bin/env bash
# The logic of action.yml, the cudalint GitHub Action.
#
#   run.sh check-go   says (output setup=true|false) whether Go must be set up
#   run.sh run        builds cudalint, runs it, writes annotations, SARIF,
#                     the job summary and the outputs findings and sarif-file
#
# Inputs come as INPUT_* variables (see action.yml); GITHUB_* and RUNNER_*
# are the runner's. CUDALINT_BIN, the path of a cudalint already built,
# is run instead of building one: the tests build once and run the
# script many times. The exit status is cudalint's: 1 when a finding at or
# above fail-level is reported, 2 when cudalint could not run.
set -euo pipefail

action_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

output() { # NAME VALUE: a step output
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
  fi
}

# The Go version go.mod asks for.
wanted_go() {
  sed -n 's/^go \([0-9][0-9.]*\).*/\1/p' "$action_dir/go.mod" | head -n1
}

# version_ge A B: A >= B for dotted versions.
version_ge() {
  [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" = "$2" ]
}

check_go() {
  local want have
  want=$(wanted_go)
  if ! command -v go >/dev/null 2>&1; then
    echo "Go is not installed: setting up Go $want"
    output setup true
    return
  fi
  have=$(go env GOVERSION 2>/dev/null | sed 's/^go//; s/[^0-9.].*//')
  if [ -z "$have" ] || ! version_ge "$have" "$want"; then
    echo "Go ${have:-of unknown version} is older than $want: setting up Go $want"
    output setup true
    return
  fi
  echo "Go $have is installed (cudalint needs $want)"
  output setup false
}

# build puts cudalint in $bin_dir: the action's own checkout, or the
# version asked for; or takes CUDALINT_BIN as it is.
build() {
  if [ -n "${CUDALINT_BIN:-}" ]; then
    cudalint=$CUDALINT_BIN
    "$cudalint" --version
    return
  fi
  bin_dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/cudalint-action-bin"
  mkdir -p "$bin_dir"
  if [ -z "${INPUT_VERSION:-}" ]; then
    (cd "$action_dir" && go build -trimpath -o "$bin_dir/cudalint" ./cmd/cudalint)
  else
    GOBIN="$bin_dir" go install "github.com/cudalint/cudalint/cmd/cudalint@${INPUT_VERSION}"
  fi
  cudalint="$bin_dir/cudalint"
  "$cudalint" --version
}

# new_from_rev prints the revision only-new-issues compares with, or
# nothing (report all).
new_from_rev() {
  case "${GITHUB_EVENT_NAME:-}" in
  pull_request | pull_request_target)
    # actions/checkout checks out the merge commit: its first parent is
    # the base, so its diff is the pull request's, with no token.
    if git rev-parse --verify --quiet 'HEAD^2' >/dev/null; then
      echo 'HEAD^1'
      return
    fi
    echo "::error title=cudalint::only-new-issues needs the pull request's merge commit with its parents: check out the default ref with fetch-depth: 2" >&2
    exit 2
    ;;
  push)
    local before=""
    if [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -f "$GITHUB_EVENT_PATH" ]; then
      before=$(tr -d '\n' <"$GITHUB_EVENT_PATH" | sed -n 's/.*"before"[[:space:]]*:[[:space:]]*"\([0-9a-f]\{40\}\)".*/\1/p')
    fi
    if [ -n "$before" ] && [ "$before" != 0000000000000000000000000000000000000000 ] &&
      git rev-parse --verify --quiet "$before^{commit}" >/dev/null; then
      echo "$before"
      return
    fi
    echo "::notice title=cudalint::only-new-issues: the commit before this push is not in the checkout (fetch-depth 0 brings it); reporting every finding" >&2
    ;;
  *)
    echo "::notice title=cudalint::only-new-issues applies to pull requests and pushes; reporting every finding" >&2
    ;;
  esac
}

# unescape undoes a workflow command's escaping of its data.
unescape() {
  local s=$1
  s=${s//%0A/ }
  s=${s//%0D/}
  s=${s//%3A/:}
  s=${s//%2C/,}
  s=${s//%25/%}
  printf '%s' "$s"
}

# code prints its argument as one Markdown code span for a table cell:
# inside one, nothing is Markdown, HTML or a link (a kernel comment's
# "<img>" or "[login](https://...)" shows as text). The delimiter is one
# backtick more than the longest run inside; a | is escaped for the table.
code() {
  local s=${1//|/\\|} d='`'
  while [[ $s == *"$d"* ]]; do d+='`'; done
  case "$s" in
  '`'* | *'`' | ' '* | *' ') s=" $s " ;;
  esac
  printf '%s%s%s' "$d" "$s" "$d"
}

# summary writes the job summary from the annotations.
summary() { # FILE_OF_ANNOTATIONS COUNT STATUS
  local file=$1 count=$2 status=$3 out=${GITHUB_STEP_SUMMARY:-/dev/null}
  {
    echo "## cudalint"
    echo
    case "$status" in
    0 | 1) echo "$count finding$([ "$count" = 1 ] || echo s) (fail level: ${INPUT_FAIL_LEVEL:-warning})." ;;
    *) echo "cudalint could not run (exit $status): see the step's log." ;;
    esac
    if [ "$count" -gt 0 ]; then
      echo
      echo "| | Where | Rule | Finding |"
      echo "| --- | --- | --- | --- |"
      local line level rest props data file_ lineno rule
      while IFS= read -r line; do
        level=${line#::}
        level=${level%% *}
        rest=${line#::"$level" }
        props=${rest%%::*}
        data=${rest#*::}
        file_=$(sed -n 's/.*file=\([^,]*\).*/\1/p' <<<"$props")
        lineno=$(sed -n 's/.*,line=\([0-9]*\).*/\1/p' <<<"$props")
        rule=$(sed -n 's/.*,title=\([^,]*\).*/\1/p' <<<"$props")
        data=$(unescape "$data")
        printf '| %s | %s | %s | %s |\n' "$level" "$(code "$(unescape "$file_"):$lineno")" "$(unescape "$rule")" "$(code "$data")"
      done <"$file"
    fi
  } >>"$out"
}

run() {
  build
  local root="${GITHUB_WORKSPACE:-}"
  if [ -z "$root" ]; then
    root=$(git rev-parse --show-toplevel 2>/dev/null || pwd)
  fi
  local -a args=(--root "$root")
  if [ -n "${INPUT_CONFIG:-}" ]; then
    args+=(--config "$INPUT_CONFIG")
  fi
  local rev=""
  if [ "${INPUT_ONLY_NEW_ISSUES:-false}" = true ]; then
    rev=$(new_from_rev)
    if [ -n "$rev" ]; then
      args+=(--new-from-rev "$rev")
    fi
  fi
  local -a extra=() paths=()
  # args and paths are split on white space, as a shell would, without
  # expanding anything.
  read -r -d '' -a extra <<<"${INPUT_ARGS:-}" || true
  read -r -d '' -a paths <<<"${INPUT_PATHS:-.}" || true
  if [ "${#paths[@]}" -eq 0 ]; then
    paths=(.)
  fi

  local tmp annotations sarif=""
  tmp=$(mktemp -d)
  annotations="$tmp/annotations"
  if [ -n "${INPUT_SARIF_FILE:-}" ]; then
    sarif=$INPUT_SARIF_FILE
    mkdir -p "$(dirname "$sarif")"
  fi

  # One run writes the annotations, the SARIF log (--sarif-output) and
  # decides the status.
  local status=0
  local -a sarif_args=()
  if [ -n "$sarif" ]; then
    sarif_args=(--sarif-output "$sarif")
  fi
  "$cudalint" "${args[@]}" "${extra[@]}" --format github --fail-level "${INPUT_FAIL_LEVEL:-warning}" "${sarif_args[@]}" -- "${paths[@]}" >"$annotations" || status=$?
  if [ -n "$sarif" ] && [ "$status" -lt 2 ] && [ -n "${INPUT_CATEGORY:-}" ]; then
    if ! [[ $INPUT_CATEGORY =~ ^[A-Za-z0-9._/-]+$ ]]; then
      echo "::error title=cudalint::category may hold letters, digits and . _ / - only" >&2
      exit 2
    fi
    local cat=${INPUT_CATEGORY%/}/
    sed -i.bak "s|\"automationDetails\":{\"id\":\"cudalint/\"}|\"automationDetails\":{\"id\":\"${cat}\"}|" "$sarif"
    rm -f "$sarif.bak"
  fi
  cat "$annotations"

  # GitHub shows at most 10 annotations of each level per step.
  local level n count
  count=$(grep -c '^::' "$annotations" || true)
  for level in error warning notice; do
    n=$(grep -c "^::$level " "$annotations" || true)
    if [ "$n" -gt 10 ]; then
      echo "::notice title=cudalint::$n ${level}s: GitHub shows 10 per step; the job summary and the SARIF log (code scanning) list them all"
    fi
  done
  summary "$annotations" "$count" "$status"
  output findings "$count"
  if [ -n "$sarif" ] && [ -f "$sarif" ]; then
    output sarif-file "$sarif"
  else
    output sarif-file ""
  fi
  rm -rf "$tmp"
  return "$status"
}

case "${1:-}" in
check-go) check_go ;;
run) run ;;
*)
  echo "usage: run.sh check-go|run" >&2
  exit 2
  ;;
esac
