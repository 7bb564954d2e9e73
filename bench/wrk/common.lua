-- Shared by the wrk scripts of bench/run.sh: the request text, reply checks, per-thread counters
-- and one machine-readable result line printed by done().
--
-- Environment (set by bench/run.sh):
--   BENCH_TEXT        the echo text (~100 bytes, no characters that need JSON escaping)
--   BENCH_SESSION_ID  the 2025 session to reuse (wire2025.lua; empty: no session header)
--   BENCH_NO_CHECK=1  do not install the response() hook (only to measure the hook's own cost)
--   BENCH_TEXT_BYTES  make the echo text this long, BENCH_TEXT repeated (the growth suite's large arguments)
local M = {}

M.text = os.getenv("BENCH_TEXT")
if not M.text or #M.text == 0 then error("BENCH_TEXT is not set") end
if M.text:find('[%c"\\]') then error("BENCH_TEXT must not need JSON escaping") end
local bytes = tonumber(os.getenv("BENCH_TEXT_BYTES") or "")
if bytes then M.text = M.text:rep(math.floor(bytes / #M.text) + 1):sub(1, bytes) end

M.check = os.getenv("BENCH_NO_CHECK") ~= "1"
M.content_block = '{"type":"text","text":"' .. M.text .. '"}'

-- Per-thread counters: globals, so that done() can read them with thread:get().
ok = 0             -- replies that passed their check (for churn: tools/call replies)
failures = 0       -- replies that failed their check
iterations = 0     -- churn: completed initialize -> initialized -> call -> DELETE sequences
pages = 0          -- list2026.lua: the pages of the complete listings
first_failure = "" -- what the first failing reply looked like

function M.fail(what, status, body)
  failures = failures + 1
  if first_failure == "" then
    first_failure = string.format("%s: status %d, body: %s", what, status, (body or ""):sub(1, 300))
  end
end

-- A tools/call reply carrying the echoed text: HTTP 200, JSON-RPC 2.0, id `id` (its JSON text), the text content
-- block, no isError; with `result_type` also "resultType":"complete" (2026-07-28). A reply framed
-- as SSE (one `data:` event) passes the same substring checks.
function M.is_echo_reply(status, body, id, result_type)
  return status == 200
    and body:find(M.content_block, 1, true) ~= nil
    and body:find('"jsonrpc":"2.0"', 1, true) ~= nil
    and (body:find('"id":' .. id .. ',', 1, true) ~= nil or body:find('"id":' .. id .. '}', 1, true) ~= nil)
    and body:find('"result":', 1, true) ~= nil
    and body:find('"isError":true', 1, true) == nil
    and (not result_type or body:find('"resultType":"complete"', 1, true) ~= nil)
end

local threads = {}
function M.setup(thread)
  table.insert(threads, thread)
end

local function json_string(s)
  s = s:gsub('[%c"\\]', function(ch)
    if ch == '"' then return '\\"' elseif ch == "\\" then return "\\\\" end
    return string.format("\\u%04x", ch:byte())
  end)
  return '"' .. s .. '"'
end

-- One line, prefixed BENCH_RESULT, that bench/run.sh picks out of wrk's output.
function M.done(summary, latency, requests)
  local sum = { ok = 0, failures = 0, iterations = 0, pages = 0 }
  local first = ""
  for _, t in ipairs(threads) do
    for k in pairs(sum) do sum[k] = sum[k] + (t:get(k) or 0) end
    local f = t:get("first_failure") or ""
    if first == "" then first = f end
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"checked":%s,"requests":%d,"duration_us":%d,"bytes":%d,"ok":%d,"failures":%d,' ..
    '"iterations":%d,"pages":%d,"err_connect":%d,"err_read":%d,"err_write":%d,"err_status":%d,"err_timeout":%d,' ..
    '"lat_mean_us":%.1f,"lat_p50_us":%d,"lat_p90_us":%d,"lat_p99_us":%d,"lat_max_us":%d,"first_failure":%s}\n',
    tostring(M.check), summary.requests, summary.duration, summary.bytes, sum.ok, sum.failures,
    sum.iterations, sum.pages, e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    json_string(first)))
end

return M
