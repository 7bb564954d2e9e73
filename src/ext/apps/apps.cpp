// MCP Apps on a Server: the extension declared, views registered as ui:// resources with the app
// MIME type and their _meta.ui, and the _meta that points a tool to its view.
#include <mcp/ext/apps.hpp>

#include <boost/json/array.hpp>

#include <stdexcept>

namespace mcp {

namespace {

constexpr std::string_view kExtension = "io.modelcontextprotocol/ui";
constexpr std::string_view kScheme = "ui://";

void check_csp(const AppResource& app) {
    for (const auto& [key, value] : app.csp) {
        if (key != "connectDomains" && key != "resourceDomains" && key != "frameDomains" && key != "baseUriDomains")
            throw std::invalid_argument("app " + app.uri + ": unknown csp key " + std::string(key));
        const auto* origins = value.if_array();
        if (origins == nullptr)
            throw std::invalid_argument("app " + app.uri + ": csp." + std::string(key) + " must be an array");
        for (const auto& origin : *origins) {
            if (!origin.is_string() || origin.get_string().empty())
                throw std::invalid_argument("app " + app.uri + ": csp." + std::string(key) + " holds a non-origin");
        }
    }
}

// _meta.ui of the resource's contents and list item: what the host builds the sandbox from.
boost::json::object ui_meta(const AppResource& app) {
    boost::json::object ui;
    if (!app.csp.empty()) ui["csp"] = app.csp;
    if (app.prefers_border) ui["prefersBorder"] = *app.prefers_border;
    if (ui.empty()) return {};
    return {{"ui", std::move(ui)}};
}

}  // namespace

Apps::Apps(Server& server) : server_(&server) { server.extension(std::string(kExtension)); }

void Apps::add(AppResource app) {
    if (!app.uri.starts_with(kScheme) || app.uri.size() == kScheme.size())
        throw std::invalid_argument("app URI \"" + app.uri + "\" must be ui://...");
    if (app.name.empty()) throw std::invalid_argument("app " + app.uri + " needs a name");
    if (app.html.empty()) throw std::invalid_argument("app " + app.uri + " needs its HTML");
    check_csp(app);
    if (uris_.contains(app.uri)) throw std::invalid_argument("app " + app.uri + " is added already");

    const auto meta = ui_meta(app);
    ResourceSpec spec;
    spec.name = app.name;
    spec.description = app.description;
    spec.mime_type = std::string(app_mime_type);
    spec.size = app.html.size();
    spec.meta = meta;
    spec.runs_inline = true;  // the document is in memory
    auto contents = std::make_shared<const ResourceContents>(
        TextResourceContents{app.uri, std::string(app_mime_type), std::move(app.html), meta});
    server_->resource(app.uri, std::move(spec), [contents] { return *contents; });
    uris_.insert(std::move(app.uri));
}

boost::json::object Apps::tool_meta(std::string_view uri, AppVisibility visibility) const {
    if (!uris_.contains(uri)) throw std::invalid_argument("no app was added at " + std::string(uri));
    boost::json::array who;
    if (visibility != AppVisibility::app_only) who.emplace_back("model");
    if (visibility != AppVisibility::model_only) who.emplace_back("app");
    return {{"ui", {{"resourceUri", uri}, {"visibility", std::move(who)}}}};
}

bool client_renders_apps(const Exchange& exchange) {
    const auto* settings = exchange.client_extension(kExtension);
    const auto* types = settings != nullptr ? settings->if_contains("mimeTypes") : nullptr;
    if (types == nullptr || !types->is_array()) return false;
    for (const auto& t : types->get_array()) {
        if (t.is_string() && t.get_string() == app_mime_type) return true;
    }
    return false;
}

}  // namespace mcp
