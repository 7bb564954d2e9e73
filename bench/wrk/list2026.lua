-- 2026-07-28 stateless wire: a full paginated tools/list, over and over: the first page, then each
-- nextCursor until a page has none. Every page is checked (200, JSON-RPC 2.0, id 1, a tools array,
-- "resultType":"complete"), and each listing must hold BENCH_TOOLS tools in all.
-- `ok` counts complete, checked listings, `pages` their pages.
-- A listing is a sequence on one connection: bench/run.sh runs this with one connection per thread.
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local c = require("common")

local expected = tonumber(os.getenv("BENCH_TOOLS") or "")
if not expected then error("BENCH_TOOLS is not set") end

local META = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
  .. '"io.modelcontextprotocol/clientCapabilities":{},'
  .. '"io.modelcontextprotocol/clientInfo":{"name":"mcp-cpp-bench","version":"1.0.0"}}'
local HEADERS = {
  ["Content-Type"] = "application/json",
  ["Accept"] = "application/json, text/event-stream",
  ["MCP-Protocol-Version"] = "2026-07-28",
  ["Mcp-Method"] = "tools/list",
}
local first_page
local cursor = nil -- the cursor of the next page; nil: the first
local seen = 0     -- tools on the pages of this listing so far
local page = 0     -- pages of this listing so far

setup = c.setup
done = c.done

function init(args)
  first_page = wrk.format("POST", nil, HEADERS, '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{' .. META .. '}}')
end

function request()
  if not cursor then return first_page end
  return wrk.format("POST", nil, HEADERS,
    '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"' .. cursor .. '",' .. META .. '}}')
end

local function count(body, what)
  local n, at = 0, 1
  while true do
    at = body:find(what, at, true)
    if not at then return n end
    n, at = n + 1, at + #what
  end
end

function response(status, headers, body)
  if status ~= 200 or not body:find('"jsonrpc":"2.0"', 1, true) or not body:find('"id":1[,}]')
      or not body:find('"tools":[', 1, true) or not body:find('"resultType":"complete"', 1, true) then
    c.fail("tools/list", status, body)
    cursor, seen, page = nil, 0, 0
    return
  end
  seen, page = seen + count(body, '"inputSchema":'), page + 1
  cursor = body:match('"nextCursor":"([^"]+)"')
  if cursor then return end
  if seen == expected then
    ok, pages = ok + 1, pages + page
  else
    c.fail("tools/list: " .. seen .. " tools listed", status, body)
  end
  seen, page = 0, 0
end
