// mcp::Client's typed methods: each builds its request, goes the common path (client_core.cpp) and
// reads the result into the protocol's types.
#include <mcp/client/client.hpp>

#include "client/client_core.hpp"
#include "client/wire.hpp"
#include "protocol/tool_result_text.hpp"
#include "util/log.hpp"

#include <mcp/protocol/errors.hpp>

#include <stdexcept>

namespace mcp {

namespace {

using detail::reading;

// An async call's completion: where the call settled (CallOptions::inline_completion), else on the
// pool; a pool that is shut down runs nothing more, so the completion then runs here. Shared, not
// copied, on its way to the pool: it may hold a whole result.
template <class F>
void run_completion(detail::HandlerPool& pool, bool inline_completion, F deliver) {
    if (inline_completion) return deliver();
    auto task = std::make_shared<F>(std::move(deliver));
    if (!pool.try_submit([task] { (*task)(); }, detail::Admission::always)) (*task)();
}

template <class T>
T read(const boost::json::value& result, const char* what, T (*reader)(const boost::json::value&)) {
    return reading(what, [&] { return reader(result); });
}

// A tool result the caller owns, read without copying what it keeps.
CallToolResult read_tool_result(boost::json::value&& result) {
    return reading("tool result", [&] { return tool_result_from_wire(std::move(result)); });
}

// A tool result from a plain reply (detail::Outcome::reply_text and reply_result): straight into its
// type when it has the usual shape; else nothing, and the reply's result as the peer reads any
// reply (a task, a tool result of another shape) in `result`.
std::optional<CallToolResult> read_tool_reply(const detail::Outcome& reply, std::size_t max_message_bytes,
                                              boost::json::value& result) {
    const jsonrpc::Limits limits{.max_message_bytes = max_message_bytes};
    if (auto typed = detail::plain_tool_result(reply.reply_result, limits.max_depth)) return typed;
    auto outcome = detail::outcome_of_reply(reply.reply_text, limits);
    if (outcome.error) std::rethrow_exception(outcome.error);
    result = std::move(outcome.result);
    return std::nullopt;
}

template <class T>
T read_wire(const boost::json::value& result, const char* what) {
    return read<T>(result, what, [](const boost::json::value& v) { return from_wire<T>(v); });
}

boost::json::object list_params(const std::optional<std::string>& cursor) {
    boost::json::object params;
    if (cursor) params["cursor"] = *cursor;
    return params;
}

template <class T>
Page<T> read_page(const boost::json::value& result, std::string_view key, T (*reader)(const boost::json::value&)) {
    return reading(std::string(key) + " listing", [&] { return detail::page_from_wire(result, key, reader); });
}

template <class T>
std::vector<T> all_of(Pages<T> pages) {
    std::vector<T> out;
    for (const auto& item : pages) out.push_back(item);
    return out;
}

}  // namespace

Client::Client(std::shared_ptr<ClientTransport> transport, ClientOptions options)
    : impl_(std::make_shared<Impl>(std::move(transport), std::move(options))) {
    impl_->init();
}

Client::~Client() {
    try {
        close();
    } catch (const std::exception& e) {
        detail::log().error("mcp::Client destroyed where it cannot close: {}", e.what());
    }
}

void Client::connect(const CallOptions& options) { impl_->connect(options); }
void Client::close() { impl_->close(); }

Era Client::era() const { return impl_->era(); }

const std::string& Client::protocol_version() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->version_;
}
const Implementation& Client::server_info() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->server_info;
}
const boost::json::object& Client::server_capabilities() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->server_capabilities;
}
const std::string& Client::instructions() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->instructions;
}
const std::vector<std::string>& Client::server_versions() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->server_versions;
}

// ---- Any method.

boost::json::value Client::request(std::string_view method, boost::json::object params, const CallOptions& options) {
    return impl_->call(std::string(method), std::move(params), options);
}

void Client::async_request(std::string method, boost::json::object params, CallOptions options,
                           std::function<void(std::exception_ptr, boost::json::value)> done) {
    auto spec = std::make_shared<CallSpec>();
    spec->method = std::move(method);
    spec->params = std::move(params);
    spec->options = std::move(options);
    auto impl = impl_;
    const bool inline_completion = spec->options.inline_completion;
    impl->start(spec, 0, spec->params,
                [impl, inline_completion, done = std::move(done)](detail::Outcome outcome) mutable {
                    run_completion(impl->pool, inline_completion,
                                   [done = std::move(done), outcome = std::move(outcome)]() mutable {
                                       done(outcome.error, std::move(outcome.result));
                                   });
                });
}

void Client::notify(std::string_view method, boost::json::object params) {
    impl_->peer->notify(method, std::move(params));
}

bool Client::after_notifications(std::function<void()> then) { return impl_->notifications->push(std::move(then)); }

// ---- Tools.

Page<Tool> Client::list_tools(const std::optional<std::string>& cursor, const CallOptions& options) {
    auto page = read_page(impl_->call("tools/list", list_params(cursor), options), "tools", &detail::tool_from_wire);
    std::erase_if(page.items, [&](const Tool& tool) { return !impl_->tools.learn(tool); });
    return page;
}

Pages<Tool> Client::tools(const CallOptions& options) {
    return Pages<Tool>(
        [this, options](const std::optional<std::string>& cursor) { return list_tools(cursor, options); },
        impl_->options.max_list_pages);
}

std::vector<Tool> Client::all_tools(const CallOptions& options) { return all_of(tools(options)); }

namespace {

// `tools` gives the x-mcp-header values, for a transport that mirrors headers (`with_headers`);
// `as_task` asks a 2025 server for a task (params.task).
std::shared_ptr<CallSpec> tool_call(const detail::ToolRegistry& tools, bool with_headers, bool as_task,
                                    std::string_view name, boost::json::object arguments, CallOptions options) {
    auto spec = std::make_shared<CallSpec>();
    spec->method = "tools/call";
    if (with_headers) spec->param_headers = tools.param_headers(name, arguments);
    spec->params.reserve(as_task ? 3 : 2);
    spec->params.emplace("name", name);
    spec->params.emplace("arguments", std::move(arguments));  // an initializer list would copy them
    if (as_task) spec->params.emplace("task", boost::json::object());
    spec->options = std::move(options);
    return spec;
}

}  // namespace

bool Client::Impl::asks_task(std::string_view tool) const {
    if (!options.tasks || era() != Era::sessions || !tools.runs_as_task(tool)) return false;
    // The server takes tasks for tools/call: capabilities.tasks.requests.tools.call.
    std::lock_guard lock(mutex);
    const boost::json::value* at = server_capabilities.if_contains("tasks");
    for (const char* key : {"requests", "tools", "call"}) {
        if (at == nullptr || !at->is_object()) return false;
        at = at->get_object().if_contains(key);
    }
    return at != nullptr;
}

CallToolResult Client::call_tool(std::string_view name, boost::json::object arguments, const CallOptions& options) {
    const bool as_task = impl_->asks_task(name);
    auto result = impl_->call(
        tool_call(impl_->tools, impl_->transport->mirrors_headers(), as_task, name, std::move(arguments), options));
    if (auto task = impl_->task_of_reply(result, as_task)) return impl_->follow_task(*task, options);
    auto typed = read_tool_result(std::move(result));
    impl_->tools.check_output(name, typed);
    return typed;
}

void Client::async_call_tool(std::string name, boost::json::object arguments, CallOptions options,
                             std::function<void(std::exception_ptr, CallToolResult)> done) {
    auto impl = impl_;
    const bool inline_completion = options.inline_completion;
    const bool as_task = impl->asks_task(name);
    auto spec = tool_call(impl->tools, impl->transport->mirrors_headers(), as_task, name, std::move(arguments),
                          std::move(options));
    spec->reply_as_text = true;
    impl->start(spec, 0, spec->params,
                [impl, spec, as_task, inline_completion, name = std::move(name),
                 done = std::move(done)](detail::Outcome outcome) mutable {
                    // A reply that came as text is read here, where the text lives.
                    std::optional<CallToolResult> typed;
                    std::optional<Task> task;
                    std::exception_ptr error = outcome.error;
                    boost::json::value result = std::move(outcome.result);
                    if (!error) {
                        try {
                            if (!outcome.reply_text.empty())
                                typed = read_tool_reply(outcome, impl->options.max_message_bytes, result);
                            if (!typed) task = impl->task_of_reply(result, as_task);
                        } catch (...) {
                            error = std::current_exception();
                        }
                    }
                    if (task) {
                        // Followed on the pool, never where the call settled: following blocks.
                        run_completion(impl->pool, false,
                                       [impl, spec, task = std::move(*task), done = std::move(done)]() mutable {
                                           CallToolResult followed;
                                           std::exception_ptr failure;
                                           try {
                                               followed = impl->follow_task(task, spec->options);
                                           } catch (...) {
                                               failure = std::current_exception();
                                           }
                                           done(failure, std::move(followed));
                                       });
                        return;
                    }
                    auto deliver = [impl, name = std::move(name), done = std::move(done), result = std::move(result),
                                    typed = std::move(typed), error]() mutable {
                        if (!error) {
                            try {
                                // Constructed in place, never assigned: the result keeps the storage it was parsed
                                // into.
                                if (!typed) typed.emplace(read_tool_result(std::move(result)));
                                impl->tools.check_output(name, *typed);
                            } catch (...) {
                                error = std::current_exception();
                            }
                        }
                        done(error, error ? CallToolResult() : std::move(*typed));
                    };
                    run_completion(impl->pool, inline_completion, std::move(deliver));
                });
}

// ---- Prompts.

Page<Prompt> Client::list_prompts(const std::optional<std::string>& cursor, const CallOptions& options) {
    return read_page(impl_->call("prompts/list", list_params(cursor), options), "prompts", &detail::prompt_from_wire);
}

Pages<Prompt> Client::prompts(const CallOptions& options) {
    return Pages<Prompt>(
        [this, options](const std::optional<std::string>& cursor) { return list_prompts(cursor, options); },
        impl_->options.max_list_pages);
}

std::vector<Prompt> Client::all_prompts(const CallOptions& options) { return all_of(prompts(options)); }

GetPromptResult Client::get_prompt(std::string_view name, const std::map<std::string, std::string>& arguments,
                                   const CallOptions& options) {
    boost::json::object params{{"name", name}};
    if (!arguments.empty()) {
        boost::json::object args;
        for (const auto& [k, v] : arguments) args[k] = v;
        params["arguments"] = std::move(args);
    }
    return read_wire<GetPromptResult>(impl_->call("prompts/get", std::move(params), options), "prompt");
}

// ---- Resources.

Page<Resource> Client::list_resources(const std::optional<std::string>& cursor, const CallOptions& options) {
    return read_page(impl_->call("resources/list", list_params(cursor), options), "resources",
                     &detail::resource_from_wire);
}

Pages<Resource> Client::resources(const CallOptions& options) {
    return Pages<Resource>(
        [this, options](const std::optional<std::string>& cursor) { return list_resources(cursor, options); },
        impl_->options.max_list_pages);
}

std::vector<Resource> Client::all_resources(const CallOptions& options) { return all_of(resources(options)); }

Page<ResourceTemplate> Client::list_resource_templates(const std::optional<std::string>& cursor,
                                                       const CallOptions& options) {
    return read_page(impl_->call("resources/templates/list", list_params(cursor), options), "resourceTemplates",
                     &detail::resource_template_from_wire);
}

Pages<ResourceTemplate> Client::resource_templates(const CallOptions& options) {
    return Pages<ResourceTemplate>(
        [this, options](const std::optional<std::string>& cursor) { return list_resource_templates(cursor, options); },
        impl_->options.max_list_pages);
}

std::vector<ResourceTemplate> Client::all_resource_templates(const CallOptions& options) {
    return all_of(resource_templates(options));
}

ReadResourceResult Client::read_resource(std::string_view uri, const CallOptions& options) {
    return read_wire<ReadResourceResult>(impl_->call("resources/read", {{"uri", uri}}, options), "resource");
}

void Client::subscribe(std::string_view uri, const CallOptions& options) {
    impl_->check_era(Era::sessions, "resources/subscribe");
    impl_->call("resources/subscribe", {{"uri", uri}}, options);
}

void Client::unsubscribe(std::string_view uri, const CallOptions& options) {
    impl_->check_era(Era::sessions, "resources/unsubscribe");
    impl_->call("resources/unsubscribe", {{"uri", uri}}, options);
}

// ---- Completion, logging, liveness, roots.

CompletionResult Client::complete(const CompletionRef& ref, std::string_view argument, std::string_view value,
                                  const std::map<std::string, std::string>& context, const CallOptions& options) {
    boost::json::object r{{"type", ref.type}};
    r[ref.type == "ref/resource" ? "uri" : "name"] = ref.name;
    boost::json::object params{{"ref", std::move(r)}, {"argument", {{"name", argument}, {"value", value}}}};
    if (!context.empty()) {
        boost::json::object args;
        for (const auto& [k, v] : context) args[k] = v;
        params["context"] = {{"arguments", std::move(args)}};
    }
    return read(impl_->call("completion/complete", std::move(params), options), "completion",
                &detail::completion_from_wire);
}

void Client::set_log_level(LogLevel level) {
    {
        std::lock_guard lock(impl_->mutex);
        impl_->log_level = level;
    }
    if (impl_->era() == Era::sessions) impl_->call("logging/setLevel", {{"level", to_string(level)}}, {});
}

void Client::ping(const CallOptions& options) {
    if (impl_->era() == Era::sessions) {
        impl_->call("ping", {}, options);
        return;
    }
    auto fresh = options;
    fresh.fresh = true;
    impl_->call("server/discover", {}, fresh);
}

void Client::set_roots(std::vector<Root> roots) {
    {
        std::lock_guard lock(impl_->mutex);
        if (!impl_->roots) throw std::logic_error("set_roots: the client did not declare roots (ClientOptions::roots)");
        impl_->roots = std::move(roots);
    }
    // A 2026 server asks for roots with each request that needs them: nothing to tell it.
    if (impl_->era() == Era::sessions) impl_->peer->notify("notifications/roots/list_changed", {});
}

ClientStats Client::stats() const {
    auto s = impl_->peer->stats();
    s.dropped_notifications = impl_->notifications->dropped();
    return s;
}

void Client::clear_cache() { impl_->cache.clear(); }

}  // namespace mcp
