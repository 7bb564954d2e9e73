#pragma once
// MCP Apps (io.modelcontextprotocol/ui): interactive HTML views a host renders for a tool's
// results, in a sandboxed iframe that talks to the host over postMessage. The server's part is a
// ui:// resource holding the HTML (MIME type text/html;profile=mcp-app), a tool whose _meta points
// to it, and the extension declared. Tools still return text content for hosts without apps.
//
//   mcp::Apps apps(server);
//   apps.add({.uri = "ui://demo/word-stats", .name = "Word statistics", .html = kWordStatsHtml});
//   server.tool({.name = "word_stats", .description = "...", .meta = apps.tool_meta("ui://demo/word-stats")},
//               handler);
#include <mcp/server/exchange.hpp>
#include <mcp/server/server.hpp>

#include <boost/json/object.hpp>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

// The MIME type of an app's HTML resource.
inline constexpr std::string_view app_mime_type = "text/html;profile=mcp-app";

struct AppResource {
    std::string uri;  // ui://...
    std::string name;
    std::string description;
    std::string html;  // a complete HTML5 document, scripts and styles inline
    // _meta.ui.csp: the origins the view needs ({"connectDomains": [...], "resourceDomains": [...],
    // "frameDomains": [...], "baseUriDomains": [...]}); empty: none, the host's restrictive default.
    boost::json::object csp;
    std::optional<bool> prefers_border;  // _meta.ui.prefersBorder
};

// Who may call a tool that has a view: the model, the view itself, or both (the default).
enum class AppVisibility { model_and_app, model_only, app_only };

class Apps {
public:
    // Declares the extension on `server`. Views and tools are registered before serving, from one thread.
    explicit Apps(Server& server);

    // Registers the view as a resource. Throws std::invalid_argument for a URI that is not ui://,
    // an empty name or HTML, or a CSP entry that is not an array of origin strings.
    void add(AppResource app);

    // The _meta of a tool rendered by the view at `uri` ({"ui": {"resourceUri", "visibility"}}),
    // to put in ToolSpec::meta. Throws std::invalid_argument when no view was added at `uri`.
    boost::json::object tool_meta(std::string_view uri, AppVisibility visibility = AppVisibility::model_and_app) const;

private:
    Server* server_;
    std::set<std::string, std::less<>> uris_;  // the views added
};

// Whether the client declared that it renders apps (capabilities.extensions["io.modelcontextprotocol/ui"]
// with text/html;profile=mcp-app among its mimeTypes): a tool may then keep its text short.
bool client_renders_apps(const Exchange& exchange);

}  // namespace mcp
