// Server's registration of tools, prompts, resources, templates and completers: each definition
// checked, its list item built once in wire form, the catalog changed and the clients told.
#include <mcp/server/server.hpp>

#include "server/call_metrics.hpp"
#include "server/core.hpp"
#include "server/methods/methods.hpp"
#include "server/tasks/task_wire.hpp"

#include <boost/json/array.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace mcp {

namespace detail {

namespace {

bool valid_tool_name(std::string_view name) {
    if (name.empty() || name.size() > 64) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
               c == '.';
    });
}

std::string default_resource_name(const std::string& uri) {
    const auto cut = uri.find_last_of("/:");
    std::string name = cut == std::string::npos ? uri : uri.substr(cut + 1);
    return name.empty() ? uri : name;
}

void put_if(boost::json::object& o, std::string_view key, const std::string& value) {
    if (!value.empty()) o[key] = value;
}

boost::json::value resource_wire(std::string_view key, const std::string& id, const ResourceSpec& spec) {
    boost::json::object o;
    o[key] = id;
    o["name"] = spec.name;
    put_if(o, "title", spec.title);
    put_if(o, "description", spec.description);
    put_if(o, "mimeType", spec.mime_type);
    if (spec.size) o["size"] = *spec.size;
    if (!spec.annotations.empty()) o["annotations"] = to_wire(spec.annotations);
    put_icons(o, spec.icons);
    put_meta(o, spec.meta);
    return o;
}

bool valid_method_name(std::string_view name) {
    if (name.empty() || name.size() > 128) return false;
    return std::all_of(name.begin(), name.end(), [](char c) { return c > ' ' && c < 0x7f; });
}

Eras eras_of(MethodEras eras) {
    switch (eras) {
        case MethodEras::sessions: return Eras::sessions;
        case MethodEras::stateless: return Eras::stateless;
        case MethodEras::both: break;
    }
    return Eras::both;
}

Cache cache_of(MethodCache cache) {
    switch (cache) {
        case MethodCache::list: return Cache::list;
        case MethodCache::read: return Cache::read;
        case MethodCache::none: break;
    }
    return Cache::none;
}

}  // namespace

}  // namespace detail

void Server::add_tool(detail::ToolDefinition def) {
    const std::string name = def.spec.name;
    if (!detail::valid_tool_name(name)) {
        throw std::invalid_argument("tool name \"" + name + "\" must match [A-Za-z0-9_.-]{1,64}");
    }
    if (def.spec.description.empty()) throw std::invalid_argument("tool " + name + " needs a description");
    const auto* type = def.input_schema.if_contains("type");
    if (type == nullptr || !type->is_string() || type->get_string() != "object") {
        throw std::invalid_argument("tool " + name + ": inputSchema must have \"type\": \"object\"");
    }
    std::optional<json::SchemaValidator> validator;
    std::optional<json::SchemaValidator> output_validator;
    std::vector<detail::HeaderParam> header_params;
    try {
        validator.emplace(def.input_schema);
        header_params = detail::header_params_of(def.input_schema);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("tool " + name + ": " + e.what());
    }
    if (def.output_schema) {
        try {
            output_validator.emplace(*def.output_schema);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("tool " + name + ": outputSchema: " + e.what());
        }
    }

    const auto task_support = def.spec.task_support;
    if (task_support != TaskSupport::forbidden && def.spec.runs_inline) {
        throw std::invalid_argument("tool " + name + ": a tool with task support cannot run inline");
    }

    boost::json::object wire;
    wire["name"] = name;
    detail::put_if(wire, "title", def.spec.title);
    wire["description"] = def.spec.description;
    wire["inputSchema"] = def.input_schema;
    if (def.output_schema) wire["outputSchema"] = *def.output_schema;
    if (task_support != TaskSupport::forbidden)
        wire["execution"] = {{"taskSupport", task_support == TaskSupport::required ? "required" : "optional"}};
    if (auto a = to_wire(def.spec.annotations); !a.as_object().empty()) wire["annotations"] = std::move(a);
    put_icons(wire, def.spec.icons);
    put_meta(wire, def.spec.meta);

    auto entry = std::make_shared<detail::ToolEntry>(
        detail::ToolEntry{std::move(def), std::move(*validator), std::move(output_validator), std::move(header_params),
                          std::move(wire), detail::entity_metrics("tool", name)});
    core_->catalog.tools.add(name, std::move(entry), "tool");
    // A tool that runs as a task declares the tasks extension (docs/adr/0021-tasks.md).
    if (task_support != TaskSupport::forbidden && !core_->catalog.extensions.declared(detail::kTasksExtension)) {
        ExtensionSpec tasks;
        tasks.id = detail::kTasksExtension;
        core_->catalog.extensions.declare(std::move(tasks));
    }
    core_->list_changed("tools");
}

bool Server::remove_tool(std::string_view name) {
    if (!core_->catalog.tools.remove(name)) return false;
    core_->list_changed("tools");
    return true;
}

void Server::add_prompt(detail::PromptDefinition def) {
    const std::string name = def.spec.name;
    if (name.empty()) throw std::invalid_argument("a prompt needs a name");
    if (def.spec.description.empty()) throw std::invalid_argument("prompt " + name + " needs a description");

    boost::json::object wire;
    wire["name"] = name;
    detail::put_if(wire, "title", def.spec.title);
    wire["description"] = def.spec.description;
    boost::json::array arguments;
    for (const auto& arg : def.spec.arguments) {
        boost::json::object a;
        a["name"] = arg.name;
        detail::put_if(a, "title", arg.title);
        detail::put_if(a, "description", arg.description);
        a["required"] = arg.required;
        arguments.push_back(std::move(a));
    }
    wire["arguments"] = std::move(arguments);
    put_icons(wire, def.spec.icons);
    put_meta(wire, def.spec.meta);

    core_->catalog.prompts.add(name,
                               std::make_shared<detail::PromptEntry>(detail::PromptEntry{
                                   std::move(def), std::move(wire), detail::entity_metrics("prompt", name)}),
                               "prompt");
    core_->list_changed("prompts");
}

bool Server::remove_prompt(std::string_view name) {
    if (!core_->catalog.prompts.remove(name)) return false;
    core_->list_changed("prompts");
    return true;
}

void Server::add_resource(detail::ResourceDefinition def) {
    if (def.uri.empty()) throw std::invalid_argument("a resource needs a URI");
    if (def.spec.name.empty()) def.spec.name = detail::default_resource_name(def.uri);
    auto wire = detail::resource_wire("uri", def.uri, def.spec);
    const std::string uri = def.uri;
    core_->catalog.resources.add(uri,
                                 std::make_shared<detail::ResourceEntry>(detail::ResourceEntry{
                                     std::move(def), std::move(wire), detail::entity_metrics("resource", uri)}),
                                 "resource");
    core_->list_changed("resources");
}

void Server::add_template(detail::TemplateDefinition def) {
    if (def.spec.name.empty()) def.spec.name = detail::default_resource_name(def.uri_template);
    auto wire = detail::resource_wire("uriTemplate", def.uri_template, def.spec);
    UriTemplate matcher(def.uri_template);
    const auto* metrics = detail::entity_metrics("resource", def.uri_template);
    auto entry = std::make_shared<detail::TemplateEntry>(
        detail::TemplateEntry{std::move(def), std::move(matcher), std::move(wire), metrics});
    core_->catalog.templates.add(std::move(entry));
    core_->list_changed("resources");
}

bool Server::remove_resource(std::string_view uri) {
    if (!core_->catalog.resources.remove(uri)) return false;
    core_->list_changed("resources");
    return true;
}

bool Server::remove_resource_template(std::string_view uri_template) {
    if (!core_->catalog.templates.remove(uri_template)) return false;
    core_->list_changed("resources");
    return true;
}

Extension Server::extension(std::string id, boost::json::object settings) {
    ExtensionSpec spec;
    spec.id = std::move(id);
    spec.settings = std::move(settings);
    return extension(std::move(spec));
}

Extension Server::extension(ExtensionSpec spec) {
    auto id = spec.id;
    core_->catalog.extensions.declare(std::move(spec));
    return {*this, std::move(id)};
}

void Server::add_method(detail::MethodDefinition def, std::string_view extension) {
    const std::string name = def.spec.name;
    if (!detail::valid_method_name(name)) {
        throw std::invalid_argument("method name \"" + name + "\" must be 1 to 128 printable ASCII characters");
    }
    const auto slash = name.find('/');
    const bool vendor_form = slash != std::string::npos && slash > 0 && slash + 1 < name.size();
    if (extension.empty() ? !vendor_form || detail::protocol_method_name(name)
                          : detail::find_method_info(name) != nullptr) {
        throw std::invalid_argument("method " + name + " collides with the protocol's names: an application's " +
                                    "own method is \"vendor/name\" outside the protocol's areas");
    }
    if (!extension.empty() && !core_->catalog.extensions.declared(extension))
        throw std::invalid_argument("method " + name + ": extension " + std::string(extension) + " is not declared");
    const auto* type = def.params_schema.if_contains("type");
    if (type == nullptr || !type->is_string() || type->get_string() != "object") {
        throw std::invalid_argument("method " + name + ": the params schema must have \"type\": \"object\"");
    }
    std::optional<json::SchemaValidator> validator;
    try {
        validator.emplace(def.params_schema);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("method " + name + ": " + e.what());
    }
    auto entry = std::make_unique<detail::MethodEntry>(
        detail::MethodEntry{std::move(def), std::string(extension), std::move(*validator), {}, {}});
    const auto& spec = entry->def.spec;
    entry->info = detail::MethodInfo{.name = spec.name,
                                     .eras = detail::eras_of(spec.eras),
                                     .user_code = true,
                                     .entity_param = spec.name_param,
                                     .cache = detail::cache_of(spec.cache)};
    entry->binding =
        detail::Method{.info = &entry->info, .run = detail::call_method, .runs_inline = detail::method_runs_inline};
    core_->catalog.methods.add(std::move(entry));
}

std::vector<std::string> Server::required_scopes() const {
    std::set<std::string> scopes;
    auto add = [&](const auto& entries) {
        for (const auto& entry : entries)
            scopes.insert(entry->def.spec.required_scopes.begin(), entry->def.spec.required_scopes.end());
    };
    add(core_->catalog.tools.all());
    add(core_->catalog.prompts.all());
    add(core_->catalog.resources.all());
    add(core_->catalog.templates.in_order());
    for (auto& scope : core_->catalog.methods.required_scopes()) scopes.insert(std::move(scope));
    return {scopes.begin(), scopes.end()};
}

void Server::notify_resource_updated(std::string_view uri) { core_->resource_updated(uri); }

void Server::complete_prompt_argument(std::string prompt, std::string argument, Completer completer) {
    core_->catalog.prompt_completers.set(std::move(prompt), std::move(argument), std::move(completer));
}

void Server::complete_template_variable(std::string uri_template, std::string variable, Completer completer) {
    core_->catalog.template_completers.set(std::move(uri_template), std::move(variable), std::move(completer));
}

}  // namespace mcp
