#!/usr/bin/env bash
# Runs the libFuzzer targets of tests/fuzz and reports, per target, executions, executions per
# second, coverage (libFuzzer's cov: edges and ft: features), corpus size, peak RSS and findings.
# CI runs every target for 30 s (scripts/test.sh); a campaign runs them for longer:
#
#   tests/fuzz/campaign.sh                                  every target, 30 s each
#   nice -n 19 tests/fuzz/campaign.sh --seconds 3600 --runs 10000000 --jobs 1
#   tests/fuzz/campaign.sh --seconds 60 fuzz_http fuzz_core
#
#   --build-dir DIR   where the targets are built (default build-fuzz: cmake --preset fuzz)
#   --seconds N       time per target (default 30); --runs N stops a target earlier, after N inputs
#   --jobs J          targets run at once (default 2); each target runs one process
#   --out DIR         results (default build-fuzz/campaign): corpus/<target> holds the inputs a run
#                     found beyond the committed ones, findings/<target> what it found (crash-*,
#                     timeout-*, oom-*, leak-*), logs/<target>.log the fuzzer's output, summary.tsv
#
# Each target starts from its committed seeds (corpus/<target>) and regressions
# (regressions/<target>), which it reads but never changes, with the dictionary mcp.dict.
# A finding, or a target that fails to run, makes the script exit 1 after the summary.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

build_dir="$root/build-fuzz"
seconds=30
runs=""
jobs=2
out=""
targets=()
while (($#)); do
  case "$1" in
    --build-dir) build_dir="$(cd "$2" && pwd)"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    -*) echo "campaign.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
out="${out:-$build_dir/campaign}"
if ((${#targets[@]} == 0)); then
  for dir in "$here"/corpus/*/; do targets+=("$(basename "$dir")"); done
fi

# Per target: how long one input may take (a hang), and the longest input. The HTTP target needs
# room beyond the 16 KiB header limit and the 64 KiB a field could once not exceed (its
# regressions are that long: libFuzzer would cut them); the core target for a conversation.
max_len_of() {
  case "$1" in
    fuzz_http) echo 72000 ;;
    fuzz_core) echo 8192 ;;
    *) echo 4096 ;;
  esac
}
timeout_of() {
  case "$1" in
    fuzz_http|fuzz_core) echo 30 ;;
    *) echo 10 ;;
  esac
}

run_target() {
  local target=$1
  local binary="$build_dir/tests/fuzz/$target"
  local log="$out/logs/$target.log"
  mkdir -p "$out/corpus/$target" "$out/findings/$target"
  local corpora=("$out/corpus/$target" "$here/corpus/$target")
  [[ -d "$here/regressions/$target" ]] && corpora+=("$here/regressions/$target")
  local args=(-dict="$here/mcp.dict" -max_total_time="$seconds" -max_len="$(max_len_of "$target")"
              -timeout="$(timeout_of "$target")" -rss_limit_mb=2048 -print_final_stats=1
              -artifact_prefix="$out/findings/$target/")
  [[ -n "$runs" ]] && args+=(-runs="$runs")
  local start=$SECONDS status=0
  if [[ ! -x "$binary" ]]; then
    echo "no such target: $binary (cmake --preset fuzz && cmake --build --preset fuzz)" >"$log"
    status=127
  else
    UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" "$binary" "${args[@]}" "${corpora[@]}" >"$log" 2>&1 || status=$?
  fi
  local elapsed=$((SECONDS - start))
  # The figures from -print_final_stats and libFuzzer's last status line.
  local execs rate rss cov ft corpus findings
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
  corpus=$(grep -o 'corp: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
  findings=$(find "$out/findings/$target" -type f | wc -l)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$target" "$elapsed" "${execs:-?}" "${rate:-?}" "${cov:-?}" \
    "${ft:-?}" "${corpus:-?}" "${rss:-?}" "$findings" "$status" >"$out/logs/$target.tsv"
}

mkdir -p "$out/logs"
rm -f "$out"/logs/*.tsv
running=0
for target in "${targets[@]}"; do
  run_target "$target" &
  if ((++running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait

summary="$out/summary.tsv"
printf 'target\tseconds\texecutions\texec/s\tcov\tft\tcorpus\tpeak_rss_mb\tfindings\texit\n' >"$summary"
failed=0
for target in "${targets[@]}"; do
  cat "$out/logs/$target.tsv" >>"$summary"
  IFS=$'\t' read -r _ _ _ _ _ _ _ _ findings status <"$out/logs/$target.tsv"
  if ((findings > 0 || status != 0)); then
    failed=1
    echo "::: $target failed (exit $status, $findings findings): the end of $out/logs/$target.log"
    tail -n 40 "$out/logs/$target.log"
  fi
done
awk -F'\t' '{ printf "%-20s %8s %12s %8s %7s %8s %7s %12s %9s %5s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }' "$summary"
exit "$failed"
