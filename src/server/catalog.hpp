#pragma once
// What this node serves: the registered tools, prompts, resources and templates, each with its
// list item already in wire form, the completers registered for their arguments, the declared
// extensions and the methods registered beside the protocol's.
#include <mcp/json/schema_validator.hpp>
#include <mcp/protocol/uri_template.hpp>
#include <mcp/server/completion.hpp>
#include <mcp/server/detail/prompt_adapter.hpp>
#include <mcp/server/detail/resource_adapter.hpp>
#include <mcp/server/detail/tool_adapter.hpp>

#include "server/custom_methods.hpp"
#include "server/extensions.hpp"
#include "server/registry.hpp"
#include "server/routing_headers.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail {

class EntityMetrics;

// Each entry has its metrics series, resolved at registration (server/call_metrics.hpp).
struct ToolEntry {
    ToolDefinition def;
    json::SchemaValidator validator;
    std::optional<json::SchemaValidator> output_validator;  // when the tool declares an outputSchema
    std::vector<HeaderParam> header_params;                 // x-mcp-header annotations
    boost::json::value wire;                                // the tools/list item
    const EntityMetrics* metrics = nullptr;
};

struct PromptEntry {
    PromptDefinition def;
    boost::json::value wire;
    const EntityMetrics* metrics = nullptr;
};

struct ResourceEntry {
    ResourceDefinition def;
    boost::json::value wire;
    const EntityMetrics* metrics = nullptr;
};

struct TemplateEntry {
    TemplateDefinition def;
    UriTemplate matcher;
    boost::json::value wire;
    const EntityMetrics* metrics = nullptr;
};

class Completers {
public:
    void set(std::string owner, std::string argument, Completer completer);
    // The completer for (owner, argument), or an empty function.
    Completer find(std::string_view owner, std::string_view argument) const;

private:
    mutable std::mutex mutex_;
    std::map<std::pair<std::string, std::string>, Completer, std::less<>> completers_;
};

// Resource templates, keyed by their text for lists and lookups, and kept in registration order,
// the order resources/read tries them in.
class Templates {
public:
    // Throws std::invalid_argument when the template is registered already.
    void add(std::shared_ptr<const TemplateEntry> entry);
    bool remove(std::string_view uri_template);
    const Registry<TemplateEntry>& registry() const { return by_key_; }
    std::vector<std::shared_ptr<const TemplateEntry>> in_order() const;

private:
    mutable std::shared_mutex mutex_;  // keeps the two views in step
    Registry<TemplateEntry> by_key_;
    std::vector<std::shared_ptr<const TemplateEntry>> order_;
};

struct Catalog {
    Registry<ToolEntry> tools;
    Registry<PromptEntry> prompts;
    Registry<ResourceEntry> resources;
    Templates templates;
    Completers prompt_completers;
    Completers template_completers;
    Extensions extensions;
    CustomMethods methods;
};

}  // namespace mcp::detail
