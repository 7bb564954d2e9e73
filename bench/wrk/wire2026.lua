-- 2026-07-28 stateless wire: tools/call of echo with the full _meta envelope and the routing headers
-- (MCP-Protocol-Version, Mcp-Method, Mcp-Name). Every reply is checked (bench/wrk/common.lua).
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local c = require("common")

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "echo"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"'
  .. c.text .. '"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
  .. '"io.modelcontextprotocol/clientCapabilities":{},'
  .. '"io.modelcontextprotocol/clientInfo":{"name":"mcp-cpp-bench","version":"1.0.0"}}}}'

setup = c.setup
done = c.done

function response(status, headers, body)
  if c.is_echo_reply(status, body, 1, true) then ok = ok + 1 else c.fail("tools/call", status, body) end
end

function init(args)
  if not c.check then response = nil end
end
