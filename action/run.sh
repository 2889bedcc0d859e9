#!/usr/bin/env bash
# The logic of action.yml, the cudalint GitHub Action.
#
#   run.sh resolve    says which release the version input names (output
#                     tag, empty for none) and where its binary is cached
#                     (outputs cache-dir, cache-key)
#   run.sh fetch      downloads that release's binary for this runner,
#                     verifies it against the release's checksums.txt and
#                     caches it (output bin); for a version with no release
#                     it outputs bin empty and build=true
#   run.sh check-go   says (output setup=true|false) whether Go must be set up
#   run.sh run        builds cudalint unless CUDALINT_BIN names one, runs
#                     it, writes annotations, SARIF, the job summary and the
#                     outputs findings and sarif-file
#
# Inputs come as INPUT_* variables (see action.yml); GITHUB_* and RUNNER_*
# are the runner's; ACTION_REF is github.action_ref, the action's own tag.
# CUDALINT_RELEASES is where releases are downloaded from (the tests
# serve a fake one). CUDALINT_BIN, the path of a cudalint already
# fetched or built, is run instead of building one: the tests build once
# and run the script many times. The exit status is cudalint's: 1 when a
# finding at or above fail-level is reported, 2 when cudalint could not
# run.
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

releases=${CUDALINT_RELEASES:-https://github.com/cudalint/cudalint/releases}

# release_tag prints the release the version input names: the input
# itself when it is latest or a version tag (v1.2.3, v1.2.3-rc.1), else,
# when the input is empty, the action's own ref if that is a version tag
# (uses: cudalint/cudalint@v1.2.3). github.action_ref is empty in some
# composite actions, so the ref is also read from the folder the runner
# checked the action out to (_actions/OWNER/REPO/REF). A commit, a
# branch or a local action (uses: ./) names no release: nothing.
release_tag() {
  local v=${INPUT_VERSION:-}
  if [ -z "$v" ]; then
    v=${ACTION_REF:-}
    if [ -z "$v" ] && [[ ${GITHUB_ACTION_PATH:-} == */_actions/*/*/* ]]; then
      v=$(basename "$GITHUB_ACTION_PATH")
    fi
  fi
  if [ "$v" = latest ] || [[ $v =~ ^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]]; then
    printf '%s' "$v"
  fi
}

# platform prints the release's name for this runner (linux_amd64), or
# nothing for one it has no binary for.
platform() {
  local os arch
  case "${RUNNER_OS:-$(uname -s)}" in
  Linux) os=linux ;;
  macOS | Darwin) os=darwin ;;
  Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
  *) return 0 ;;
  esac
  case "${RUNNER_ARCH:-$(uname -m)}" in
  X64 | x86_64 | amd64) arch=amd64 ;;
  ARM64 | arm64 | aarch64) arch=arm64 ;;
  *) return 0 ;;
  esac
  printf '%s_%s' "$os" "$arch"
}

cache_root() {
  printf '%s/cudalint' "${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}}"
}

resolve() {
  local tag plat
  tag=$(release_tag)
  plat=$(platform)
  output tag "$tag"
  # latest changes from release to release: never cached under its name.
  if [ -n "$tag" ] && [ "$tag" != latest ] && [ -n "$plat" ]; then
    output cache-dir "$(cache_root)/$tag/$plat"
    output cache-key "cudalint-$tag-$plat"
  else
    output cache-dir ""
    output cache-key ""
  fi
}

sha256() { # FILE: its SHA-256 in hex
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

# download URL FILE: 0 when fetched, 4 when the server has no such file
# (404), else an error.
download() {
  local code
  code=$(curl -sS -L --retry 3 --retry-connrefused -o "$2" -w '%{http_code}' "$1") || {
    echo "::error title=cudalint::could not download $1" >&2
    return 2
  }
  case "$code" in
  200 | 000) return 0 ;; # 000: a file:// URL
  404) return 4 ;;
  *)
    echo "::error title=cudalint::downloading $1: HTTP $code" >&2
    return 2
    ;;
  esac
}

no_release() { # WHY: fall back to building
  echo "$1: building cudalint from source"
  output bin ""
  output build true
}

# fetch puts the release's binary in the cache folder, verified, and
# names it in the output bin.
fetch() {
  local tag plat exe=cudalint dir asset url tmp status=0
  tag=$(release_tag)
  plat=$(platform)
  if [ -z "$tag" ]; then
    no_release "cudalint ${INPUT_VERSION:-${ACTION_REF:-of this checkout}} names no release"
    return
  fi
  if [ -z "$plat" ]; then
    no_release "no release binary for ${RUNNER_OS:-$(uname -s)} ${RUNNER_ARCH:-$(uname -m)}"
    return
  fi
  case "$plat" in
  windows_*)
    exe=cudalint.exe
    asset=cudalint_$plat.zip
    ;;
  *) asset=cudalint_$plat.tar.gz ;;
  esac
  if [ "$tag" = latest ]; then
    url=$releases/latest/download
    dir=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/cudalint-latest.XXXXXX")
  else
    url=$releases/download/$tag
    dir=$(cache_root)/$tag/$plat
  fi
  # A cached binary is used when it is the one that was verified.
  if [ -f "$dir/$exe" ] && [ -f "$dir/$exe.sha256" ] && [ "$(sha256 "$dir/$exe")" = "$(cat "$dir/$exe.sha256")" ]; then
    echo "cudalint $tag for $plat from the cache ($dir)"
    output bin "$dir/$exe"
    output build false
    output downloaded false
    return
  fi
  tmp=$(mktemp -d)
  download "$url/checksums.txt" "$tmp/checksums.txt" || status=$?
  if [ "$status" = 4 ]; then
    rm -rf "$tmp"
    no_release "cudalint $tag has no release at $url"
    return
  elif [ "$status" != 0 ]; then
    rm -rf "$tmp"
    exit 2
  fi
  download "$url/$asset" "$tmp/$asset" || status=$?
  if [ "$status" != 0 ]; then
    echo "::error title=cudalint::the release $tag has no $asset at $url" >&2
    rm -rf "$tmp"
    exit 2
  fi
  local want got
  want=$(awk -v f="$asset" '$2 == f || $2 == "*" f { print $1 }' "$tmp/checksums.txt" | head -n1)
  got=$(sha256 "$tmp/$asset")
  if [ -z "$want" ]; then
    echo "::error title=cudalint::$url/checksums.txt lists no $asset" >&2
    rm -rf "$tmp"
    exit 2
  fi
  if [ "$want" != "$got" ]; then
    echo "::error title=cudalint::$asset of $tag does not match checksums.txt (SHA-256 $got, want $want): not running it" >&2
    rm -rf "$tmp"
    exit 2
  fi
  mkdir -p "$tmp/x"
  case "$asset" in
  *.zip)
    if command -v unzip >/dev/null 2>&1; then
      unzip -q -o "$tmp/$asset" "$exe" -d "$tmp/x"
    else
      powershell -NoProfile -Command "Expand-Archive -Force -Path '$tmp/$asset' -DestinationPath '$tmp/x'"
    fi
    ;;
  *) tar -xzf "$tmp/$asset" -C "$tmp/x" "$exe" ;;
  esac
  if [ ! -f "$tmp/x/$exe" ]; then
    echo "::error title=cudalint::$asset of $tag holds no $exe" >&2
    rm -rf "$tmp"
    exit 2
  fi
  mkdir -p "$dir"
  mv -f "$tmp/x/$exe" "$dir/$exe"
  chmod +x "$dir/$exe"
  sha256 "$dir/$exe" >"$dir/$exe.sha256"
  rm -rf "$tmp"
  echo "cudalint $tag for $plat: downloaded $url/$asset, SHA-256 $got as checksums.txt lists"
  output bin "$dir/$exe"
  output build false
  output downloaded "$([ "$tag" = latest ] && echo false || echo true)"
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

# workspace_path FILE prints FILE, a path relative to the working
# folder (working-directory) or absolute, as the steps after this one
# read it (they run in the workspace): relative to the workspace when it
# is inside it, else absolute.
workspace_path() {
  local dir base ws
  dir=$(cd "$(dirname "$1")" && pwd -P)
  base=$(basename "$1")
  if [ -n "${GITHUB_WORKSPACE:-}" ] && ws=$(cd "$GITHUB_WORKSPACE" 2>/dev/null && pwd -P); then
    if [ "$dir" = "$ws" ]; then
      printf '%s' "$base"
      return
    fi
    case "$dir/" in
    "$ws"/*)
      printf '%s/%s' "${dir#"$ws"/}" "$base"
      return
      ;;
    esac
  fi
  printf '%s/%s' "$dir" "$base"
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
    output sarif-file "$(workspace_path "$sarif")"
  else
    output sarif-file ""
  fi
  rm -rf "$tmp"
  return "$status"
}

case "${1:-}" in
resolve) resolve ;;
fetch) fetch ;;
check-go) check_go ;;
run) run ;;
*)
  echo "usage: run.sh resolve|fetch|check-go|run" >&2
  exit 2
  ;;
esac
