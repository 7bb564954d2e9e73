-- 2025-11-25 wire: tools/call of echo with MCP-Protocol-Version: 2025-11-25.
--
-- With BENCH_SESSION_ID: every connection reuses that one session, which bench/run.sh opened with
-- curl (initialize + notifications/initialized). A session's request ids must be unique, so each
-- request carries a fresh string id ("b<thread>-<10 digits>", fixed width so that the request is a
-- prefix, the id and a suffix); every reply must carry the id of a request still outstanding on
-- this thread, and each id is answered once.
-- Without it: the stateless 2025 wire (no session header, constant id 1, a static request).
--
-- BENCH_FIXED_REPLY=1 (the nginx floor, whose reply is fixed: mcp-cpp's reply to id 2): check for
-- id 2 instead, so that the cost of generating the session requests is measured on the floor too.
-- Every reply is checked (bench/wrk/common.lua).
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local c = require("common")

local sid = os.getenv("BENCH_SESSION_ID") or ""
local fixed_reply = os.getenv("BENCH_FIXED_REPLY") == "1"

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
local params = '"method":"tools/call","params":{"name":"echo","arguments":{"text":"' .. c.text .. '"}}}'

local counter = 0
local head, body_prefix
local outstanding = {}
local nthreads = 0
tag = 0 -- set per thread by setup()

function setup(thread)
  nthreads = nthreads + 1
  thread:set("tag", nthreads)
  c.setup(thread)
end
done = c.done

if sid == "" then
  wrk.body = '{"jsonrpc":"2.0","id":1,' .. params
else
  wrk.headers["Mcp-Session-Id"] = sid
  function request()
    counter = counter + 1
    local id = string.format("b%d-%010d", tag, counter)
    outstanding[id] = true
    return head .. body_prefix .. id .. '",' .. params
  end
end

local function check_session_reply(status, body)
  if fixed_reply then return c.is_echo_reply(status, body, 2, false) end
  local id = body:match('"id":"(b%d+%-%d+)"')
  if not id or not outstanding[id] then return false end
  outstanding[id] = nil
  return c.is_echo_reply(status, body, '"' .. id .. '"', false)
end

function response(status, headers, body)
  local good
  if sid == "" then good = c.is_echo_reply(status, body, 1, false) else good = check_session_reply(status, body) end
  if good then ok = ok + 1 else c.fail("tools/call", status, body) end
end

function init(args)
  if sid ~= "" then
    body_prefix = '{"jsonrpc":"2.0","id":"'
    local sample = body_prefix .. string.format("b%d-%010d", tag, 0) .. '",' .. params
    -- wrk.format ends the head with Content-Length and a blank line, then the body: keep the head.
    local full = wrk.format(nil, nil, nil, sample)
    head = full:sub(1, #full - #sample)
  end
  if not c.check then response = nil end
end
