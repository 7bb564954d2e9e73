-- 2025-11-25 session churn: each connection loops initialize -> notifications/initialized ->
-- tools/call echo -> DELETE, each step waiting for the previous reply, each reply checked.
--
-- wrk gives a script no connection identity, only a Lua state per thread, so this state machine
-- needs exactly ONE connection per thread: bench/run.sh runs it with -t equal to -c.
-- `ok` counts checked tools/call replies, `iterations` completed sequences (after the DELETE).
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local c = require("common")

local INITIALIZE = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
  .. '"capabilities":{},"clientInfo":{"name":"mcp-cpp-bench","version":"1.0.0"}}}'
local INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}'
local CALL = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"'
  .. c.text .. '"}}}'

local step = 1 -- 1 initialize, 2 initialized, 3 tools/call, 4 DELETE
local init_request, session_requests

local function header(headers, name)
  for k, v in pairs(headers) do
    if k:lower() == name then return v end
  end
  return nil
end

function init(args)
  init_request = wrk.format("POST", nil, {
    ["Content-Type"] = "application/json",
    ["Accept"] = "application/json, text/event-stream",
  }, INITIALIZE)
end

setup = c.setup
done = c.done

function request()
  if step == 1 then return init_request end
  return session_requests[step]
end

local function restart(what, status, body)
  c.fail(what, status, body)
  step = 1
end

function response(status, headers, body)
  if step == 1 then
    local sid = header(headers, "mcp-session-id")
    if status ~= 200 or not sid or sid == "" or not body:find('"protocolVersion":"2025-11-25"', 1, true)
        or not body:find('"id":1[,}]') then
      return restart("initialize", status, body)
    end
    local h = {
      ["Content-Type"] = "application/json",
      ["Accept"] = "application/json, text/event-stream",
      ["Mcp-Session-Id"] = sid,
      ["MCP-Protocol-Version"] = "2025-11-25",
    }
    session_requests = {
      [2] = wrk.format("POST", nil, h, INITIALIZED),
      [3] = wrk.format("POST", nil, h, CALL),
      [4] = wrk.format("DELETE", nil, h, nil),
    }
    step = 2
  elseif step == 2 then
    if status ~= 202 then return restart("notifications/initialized", status, body) end
    step = 3
  elseif step == 3 then
    if not c.is_echo_reply(status, body, 2, false) then return restart("tools/call", status, body) end
    ok = ok + 1
    step = 4
  else
    if status < 200 or status > 299 then return restart("DELETE", status, body) end
    iterations = iterations + 1
    step = 1
  end
end
