#include <mcp/bridge/mount.hpp>

#include <mcp/client/errors.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/uri_template.hpp>
#include <mcp/server/server.hpp>

#include "bridge/mount_completions.hpp"
#include "bridge/mount_errors.hpp"
#include "bridge/mount_names.hpp"
#include "bridge/mount_relay.hpp"
#include "bridge/mount_subscriptions.hpp"
#include "bridge/mounted_call.hpp"
#include "bridge/open_calls.hpp"
#include "bridge/url_elicitations.hpp"
#include "util/log.hpp"

#include <boost/json/serialize.hpp>

#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <stop_token>
#include <type_traits>

#include <iterator>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace mcp {

namespace {

// Mounted calls waiting for a 2026 outer client's next round, and for how long: the default
// lifetime of a requestState (ServerOptions::client_requests.request_state_ttl).
constexpr std::size_t kMaxParkedCalls = 1'000;
constexpr std::chrono::milliseconds kParkedCallTtl{15 * 60'000};

// What identifies a listed entry's contents: a change of any field re-registers it.
std::string fingerprint(const Tool& tool) {
    boost::json::array icons;
    for (const Icon& icon : tool.icons) icons.push_back(to_wire(icon));
    boost::json::object o{{"title", tool.title},
                          {"description", tool.description},
                          {"inputSchema", tool.input_schema},
                          {"annotations", to_wire(tool.annotations)},
                          {"taskSupport", tool.task_support},
                          {"icons", std::move(icons)},
                          {"meta", tool.meta}};
    if (tool.output_schema) o["outputSchema"] = *tool.output_schema;
    return boost::json::serialize(o);
}

std::string fingerprint(const Prompt& prompt) {
    boost::json::array arguments;
    for (const PromptArgument& a : prompt.arguments) {
        arguments.push_back(
            {{"name", a.name}, {"title", a.title}, {"description", a.description}, {"required", a.required}});
    }
    boost::json::array icons;
    for (const Icon& icon : prompt.icons) icons.push_back(to_wire(icon));
    return boost::json::serialize(boost::json::object{{"title", prompt.title},
                                                      {"description", prompt.description},
                                                      {"arguments", std::move(arguments)},
                                                      {"icons", std::move(icons)},
                                                      {"meta", prompt.meta}});
}

std::string fingerprint(const Resource& resource) { return boost::json::serialize(to_wire(Content{resource})); }

std::string fingerprint(const ResourceTemplate& t) {
    boost::json::array icons;
    for (const Icon& icon : t.icons) icons.push_back(to_wire(icon));
    return boost::json::serialize(boost::json::object{{"name", t.name},
                                                      {"title", t.title},
                                                      {"description", t.description},
                                                      {"mimeType", t.mime_type},
                                                      {"annotations", to_wire(t.annotations)},
                                                      {"icons", std::move(icons)},
                                                      {"meta", t.meta}});
}

// An inner tool's execution.taskSupport; what the outer core does not know is "forbidden".
TaskSupport task_support_of(const std::string& wire) {
    if (wire == "optional") return TaskSupport::optional;
    if (wire == "required") return TaskSupport::required;
    return TaskSupport::forbidden;
}

// The core requires a description; an inner entry without one gets its title, else its name.
std::string description_of(const std::string& description, const std::string& title, const std::string& name) {
    if (!description.empty()) return description;
    return title.empty() ? name : title;
}

ResourceSpec resource_spec(const Resource& r) {
    return {.name = r.name,
            .title = r.title,
            .description = r.description,
            .mime_type = r.mime_type,
            .size = r.size,
            .annotations = r.annotations,
            .icons = r.icons,
            .meta = r.meta};
}

ResourceSpec template_spec(const ResourceTemplate& t) {
    return {.name = t.name,
            .title = t.title,
            .description = t.description,
            .mime_type = t.mime_type,
            .annotations = t.annotations,
            .icons = t.icons,
            .meta = t.meta};
}

// The inner hop's 2026 envelope (its serverInfo, its cache hints) says nothing true of the outer
// answer: the outer core writes its own.
void drop_envelope(boost::json::object& meta) {
    for (auto it = meta.begin(); it != meta.end();) {
        it = it->key().starts_with("io.modelcontextprotocol/") ? meta.erase(it) : std::next(it);
    }
}

// What the outer client is asked for a request of the inner server, under the key that names it
// to a 2026 outer client. Throws std::invalid_argument for a requestedSchema that is not a form.
InputRequest outer_request(const detail::MountedCall::Question& question) {
    if (const auto* elicitation = std::get_if<Elicitation>(&question.request)) {
        if (elicitation->mode == ElicitMode::url) {
            return UrlElicitRequest{elicitation->message, elicitation->url, elicitation->elicitation_id, question.key};
        }
        return ElicitRequest{elicitation->message, FormSchema::from_json(elicitation->requested_schema), question.key};
    }
    if (std::holds_alternative<RootsRequest>(question.request)) return RootsRequest{question.key};
    auto sampling = std::get<SamplingRequest>(question.request);
    sampling.key = question.key;
    return sampling;
}

// What the inner server hears when the outer client cannot answer: the outer client's own refusal.
int refusal_code(const ClientRequestError& e) {
    if (const auto* refused = dynamic_cast<const ClientError*>(&e)) return refused->code();
    return error_code::internal_error;
}

// The outer client's answers to inner requests asked together (one 2026 round), or its refusals,
// or (not a std::exception, context.hpp) the end of this run of the handler when a 2026 outer
// client is yet to answer.
std::vector<detail::Settlement> settle_all(Context& ctx, const std::vector<detail::MountedCall::Question>& questions) {
    std::vector<detail::Settlement> settled(questions.size());
    std::vector<InputRequest> asked;
    std::vector<std::size_t> at;  // the question each asked request is
    for (std::size_t i = 0; i < questions.size(); ++i) {
        try {
            asked.push_back(outer_request(questions[i]));
            at.push_back(i);
        } catch (const std::invalid_argument& e) {
            settled[i] = detail::Refusal{error_code::invalid_params, std::string("requestedSchema: ") + e.what()};
        }
    }
    if (asked.empty()) return settled;
    try {
        auto answers = ctx.ask(asked);
        for (std::size_t k = 0; k < at.size(); ++k) settled[at[k]] = std::move(answers[k]);
    } catch (const CapabilityMissing&) {
        // A 2026 inner server would have refused this caller itself (-32021): so does the mount. A
        // 2025 one hears the refusal, as from a client without the capability.
        if (questions[at.front()].in_round) throw;
        for (auto i : at)
            settled[i] = detail::Refusal{error_code::method_not_found, "the client does not handle this request"};
    } catch (const ClientRequestError& e) {
        for (auto i : at) settled[i] = detail::Refusal{refusal_code(e), e.what()};
    }
    return settled;
}

// One inner request's settlement (a retry resumed on another node settles the one its ticket names).
detail::Settlement settle(Context& ctx, const detail::MountedCall::Question& question) {
    return std::move(settle_all(ctx, {question}).front());
}

// The broadcast topic of a mount's nodes (a prefix holds no newline).
std::string relay_topic(const std::string& prefix) { return "mcp.mount/" + prefix; }

// A 2026 inner server's input requests of this call go to it: the inner client knows whose they are.
void ask_through(CallOptions& options, const std::weak_ptr<detail::MountedCall>& weak) {
    const auto call = [weak] {
        auto c = weak.lock();
        if (!c) throw Error(error_code::internal_error, "the mounted call this request belongs to has ended");
        return c;
    };
    options.elicitation = [call](const Elicitation& request, const std::string& key) {
        return std::get<ElicitResult>(call()->ask(request, key));
    };
    options.sampling = [call](const SamplingRequest& request, const std::string& key) {
        return std::get<SamplingResult>(call()->ask(request, key));
    };
    options.roots = [call](const std::string& key) {
        return std::get<std::vector<Root>>(call()->ask(RootsRequest{}, key));
    };
}

// A 2026 inner call declares the outer caller's elicitation (with its modes), sampling and roots in place of the inner
// client's, or none of them the caller lacks: the inner server asks, adapts or refuses (-32021) as it would for that
// caller (decision 11).
void mirror_caller(CallOptions& options, const Context& ctx) {
    boost::json::object capabilities{{"elicitation", nullptr}, {"sampling", nullptr}, {"roots", nullptr}};
    const auto& declared = ctx.exchange().client_capabilities();
    for (const char* name : {"elicitation", "sampling", "roots"}) {
        if (!ctx.client_supports(name)) continue;
        const auto& value = declared.at(name);
        capabilities[name] = value.is_object() ? value : boost::json::object();
    }
    options.capabilities = std::move(capabilities);
    options.log_level = ctx.exchange().log_level();
}

// The capability a -32021 error names (data.requiredCapabilities), if it names one.
std::optional<std::string> required_capability(const boost::json::value& data) {
    const auto* o = data.if_object();
    const auto* required = o != nullptr ? o->if_contains("requiredCapabilities") : nullptr;
    if (required == nullptr || !required->is_object() || required->get_object().empty()) return std::nullopt;
    return std::string(required->get_object().begin()->key());
}

// How one kind of inner call is started: on the client, with the mount's options, ending in `done`.
using InnerDone = std::function<void(std::exception_ptr, detail::InnerResult)>;
using StartInner = std::function<void(Client&, CallOptions, InnerDone)>;

// An async_request's completion that reads the result as T; a malformed one is the client's
// ProtocolViolation, as Client::get_prompt and read_resource would have thrown.
template <class T>
std::function<void(std::exception_ptr, boost::json::value)> reading(InnerDone done) {
    return [done = std::move(done)](std::exception_ptr error, const boost::json::value& result) {
        std::optional<T> typed;
        if (!error) {
            try {
                typed.emplace(from_wire<T>(result));
            } catch (const std::invalid_argument& e) {
                error = std::make_exception_ptr(ProtocolViolation(std::string("malformed result: ") + e.what()));
            }
        }
        done(error, typed ? std::move(*typed) : T{});
    };
}

// prompts/get's params.
boost::json::object prompt_params(const std::string& name, const std::map<std::string, std::string>& arguments) {
    boost::json::object params{{"name", name}};
    if (!arguments.empty()) {
        boost::json::object args;
        for (const auto& [k, v] : arguments) args[k] = v;
        params["arguments"] = std::move(args);
    }
    return params;
}

// The inner call continues the outer request's trace: its CLIENT span under the handler's span.
void continue_trace(CallOptions& options, const Context& ctx) {
    auto trace = ctx.outgoing_trace();
    if (!trace.traceparent.empty()) options.trace = std::move(trace);
}

}  // namespace

struct Mount::State : std::enable_shared_from_this<Mount::State> {
    State(Server& s, std::string p, MountClientSource src) : server(s), prefix(std::move(p)), source(std::move(src)) {}

    // An entry of the inner server the outer one serves: its outer name or URI and its fingerprint.
    struct Registered {
        std::string outer;
        std::string fingerprint;
    };

    Server& server;
    const std::string prefix;

    std::mutex source_mutex;
    MountClientSource source;

    // The calls in flight, and those waiting between a 2026 outer client's rounds.
    detail::OpenCalls open{prefix, kMaxParkedCalls, kParkedCallTtl};
    // The retries of those that reach another node sharing the store, and back.
    detail::MountRelay nodes{
        prefix, open,
        server.options().store == "memory"
            ? detail::MountRelay::Publish{}
            : [&s = server, topic = relay_topic(prefix)](std::string_view payload) { s.broadcast(topic, payload); }};

    // The level a 2025 inner client's session asks log messages at, and of which client.
    std::mutex level_mutex;
    std::weak_ptr<Client> leveled_client;
    std::optional<LogLevel> leveled;
    // Inner log messages no call takes, written to this process's log: lines in this second.
    static constexpr int kOwnLogLines = 20;
    std::mutex own_log_mutex;
    std::chrono::steady_clock::time_point own_log_window;
    int own_log_lines = 0;

    std::mutex mutex;     // the registrations below, and sync's changes to the server
    bool closed = false;  // the mount is gone: a refresh still running registers nothing more
    std::map<std::string, Registered, std::less<>> tools;      // by inner name
    std::map<std::string, Registered, std::less<>> prompts;    // by inner name
    std::map<std::string, Registered, std::less<>> resources;  // by inner URI
    std::map<std::string, Registered, std::less<>> templates;  // by inner URI template

    std::shared_ptr<Client> client() {
        std::lock_guard lock(source_mutex);
        return source ? source() : nullptr;
    }

    [[noreturn]] void unreachable(const std::string& why) const { throw detail::unreachable_mount(prefix, why); }

    // Answers a 2025 inner server's log messages at its session's level: lowered to the lowest level
    // a caller asked for, never raised while the client lives (each outer call's own level filters
    // what reaches it). A 2026 inner call asks with its own _meta instead (mirror_caller).
    void ask_for_log_messages(const std::shared_ptr<Client>& client, const Context& ctx) {
        const auto wanted = ctx.exchange().log_level();
        if (!wanted || client->era() != Era::sessions || !client->server_capabilities().contains("logging")) return;
        std::lock_guard lock(level_mutex);
        if (leveled_client.lock() == client && leveled && *leveled <= *wanted) return;
        try {
            client->set_log_level(*wanted);
            leveled_client = client;
            leveled = wanted;
        } catch (const std::exception& e) {
            detail::log().warn("mount {}: logging/setLevel failed: {}", prefix, e.what());
        }
    }

    // A log message of the inner server goes to the one call in flight it may belong to (a message
    // does not say which call it is for): any call of a 2025 session, a 2026 call that asked for its
    // level. With none or several, to this process's own log, at most kOwnLogLines lines a second.
    void pass_log(const LogMessage& message) {
        if (auto call = open.route_log(message.level); call && call->log(message)) return;
        {
            std::lock_guard lock(own_log_mutex);
            const auto now = std::chrono::steady_clock::now();
            if (now - own_log_window >= std::chrono::seconds(1)) {
                own_log_window = now;
                own_log_lines = 0;
            }
            if (++own_log_lines > kOwnLogLines) return;
        }
        const auto text = detail::printable(
            message.data.is_string() ? std::string(message.data.get_string()) : boost::json::serialize(message.data),
            1000);
        if (message.level >= LogLevel::warning) {
            detail::log().warn("mount {}: {} {}: {}", prefix, to_string(message.level), message.logger, text);
        } else {
            detail::log().debug("mount {}: {} {}: {}", prefix, to_string(message.level), message.logger, text);
        }
    }

    // What the outer core would answer for an inner error: the inner server's own errors as it sent
    // them, except that a 2026 inner server's refusal of the caller's capabilities (-32021, decision
    // 11) reaches a 2025 caller as the core answers a handler whose caller lacks one (an isError tool
    // result); a failure to reach the inner server as a -32603 error naming the mount.
    template <class F>
    auto mapped(const Context& ctx, F&& f) {
        try {
            return f();
        } catch (const Error& e) {
            if (e.code() == error_code::missing_required_client_capability && ctx.exchange().era() != Era::stateless) {
                if (auto capability = required_capability(e.data())) throw CapabilityMissing(*capability);
            }
            throw;
        } catch (const ClientFailure& e) {
            unreachable(e.what());
        }
    }

    // ---- A mounted call (a tool call, a prompt, a read): the inner server's requests passed to the
    // outer client (decision 11), its progress and log messages to the outer call (decision 11).

    // The first run starts the inner call; a 2026 retry continues the one its requestState names.
    template <class Result>
    Result forward(Context& ctx, const StartInner& start) {
        if (!ctx.round_state().empty()) {
            auto ticket = detail::decode_ticket(ctx.round_state());
            if (ticket && nodes.elsewhere(ticket->node)) {
                // Another node holds the call: a tool call's retry is resumed there, not yet others.
                if constexpr (std::is_same_v<Result, CallToolResult>) {
                    return nodes.resume(ctx, std::move(*ticket), settle);
                }
                detail::throw_no_longer_waiting(prefix);
            }
            auto call = ticket && ticket->node == nodes.node() ? open.take(ticket->call) : nullptr;
            if (!call) detail::throw_no_longer_waiting(prefix);
            return relay<Result>(ctx, call);
        }
        auto client = this->client();
        if (!client) unreachable("it is not connected");
        ask_for_log_messages(client, ctx);
        auto call = std::make_shared<detail::MountedCall>();
        std::weak_ptr<detail::MountedCall> weak = call;
        CallOptions options;
        options.stop = call->stop_token();
        continue_trace(options, ctx);
        if (!ctx.exchange().progress_token().is_null()) {
            options.on_progress = [weak](const Progress& p) {
                if (auto c = weak.lock()) c->progress(p);
            };
        }
        ask_through(options, weak);
        mirror_caller(options, ctx);
        if (client->era() == Era::stateless) call->asked_log_level(options.log_level);
        options.input_round = [weak](const std::vector<RoundRequest>& requests) {
            auto c = weak.lock();
            if (!c) throw Error(error_code::internal_error, "the mounted call these requests belong to has ended");
            return c->ask(requests);
        };
        options.on_task = [weak](const Task&) {
            if (auto c = weak.lock()) c->task_started();
        };
        call->attach(&ctx);  // before the inner server can send anything
        open.enter(call);
        try {
            start(*client, std::move(options),
                  [weak, weak_client = std::weak_ptr<Client>(client)](const std::exception_ptr& error,
                                                                      detail::InnerResult result) {
                      auto c = weak.lock();
                      if (!c) return;
                      // After the notifications that came before the end (log messages, progress):
                      // they still find the call in flight.
                      auto end = std::make_shared<detail::InnerResult>(std::move(result));
                      auto finish = [c, error, end] { c->finish(error, std::move(*end)); };
                      auto inner_client = weak_client.lock();
                      if (!inner_client || !inner_client->after_notifications(finish)) finish();
                  });
        } catch (...) {
            call->attach(nullptr);
            open.leave(call);
            throw;
        }
        return relay<Result>(ctx, call);
    }

    // A 2025 outer session asked to open a URL hears when its flow completed (decision 13).
    void remember_url_elicitations(const Context& ctx, const std::vector<detail::MountedCall::Question>& questions) {
        const auto& session = ctx.exchange().session();
        if (ctx.exchange().era() != Era::sessions || !session) return;
        for (const auto& question : questions) {
            const auto* elicitation = std::get_if<Elicitation>(&question.request);
            if (elicitation != nullptr && elicitation->mode == ElicitMode::url)
                url_elicitations.remember(elicitation->elicitation_id, session);
        }
    }

    void pass_elicitation_complete(const std::string& elicitation_id) {
        auto session = url_elicitations.take(elicitation_id);
        if (!session) return;  // not one this mount passed on, or its session is gone
        session->notify(boost::json::object{{"jsonrpc", "2.0"},
                                            {"method", "notifications/elicitation/complete"},
                                            {"params", {{"elicitationId", elicitation_id}}}});
    }

    // Waits for the inner call's end, putting each inner request to the outer client meanwhile. On
    // a 2026 outer client a request ends this run: the call waits in `open` under the id the
    // requestState carries, and the retry brings the answer.
    template <class Result>
    Result relay(Context& ctx, const std::shared_ptr<detail::MountedCall>& call) {
        struct Run {
            State& state;
            const std::shared_ptr<detail::MountedCall>& call;
            bool parked = false;
            ~Run() {
                call->attach(nullptr);
                if (parked) return;
                state.open.leave(call);
                call->abandon("the outer call ended");  // cancels an inner call still running
            }
        } run{*this, call};
        call->attach(&ctx);
        std::stop_callback on_cancel(ctx.stop_token(), [&call] { call->abandon("the outer call was cancelled"); });
        while (auto question = call->next([&ctx] { ctx.start_task(); })) {
            // The requests the inner server asked together are asked together (one 2026 round).
            const auto questions = call->unsettled();
            remember_url_elicitations(ctx, questions);
            std::vector<detail::Settlement> settled;
            try {
                settled = settle_all(ctx, questions);
            } catch (const std::exception&) {
                throw;
            } catch (...) {
                // A 2026 outer client: the questions leave with this run's end, and the call waits
                // for the retry, on whichever node it reaches (the ticket names this one and the
                // oldest question; a retry elsewhere settles the others one by one).
                ctx.set_round_state(nodes.ticket(open.park(call), *question));
                run.parked = true;
                if (ctx.in_task()) cancel_with_task(ctx, call);
                throw;
            }
            for (std::size_t i = 0; i < settled.size(); ++i) {
                if (auto* refusal = std::get_if<detail::Refusal>(&settled[i])) {
                    call->refuse(questions[i].key, refusal->code, std::move(refusal->message));
                } else {
                    call->answer(questions[i].key, std::get<detail::OuterAnswer>(std::move(settled[i])));
                }
            }
        }
        auto result = mapped(ctx, [&] { return call->result(); });
        auto* typed = std::get_if<Result>(&result);
        if (typed == nullptr) {
            throw Error(error_code::internal_error,
                        "mounted server \"" + prefix + "\": the retry continues a call of another kind",
                        boost::json::object{{"mount", prefix}});
        }
        return std::move(*typed);
    }

    // A call parked in an outer 2026 task waits with no run of the handler to watch the task's
    // stop token: tasks/cancel reaches the parked call through it, and cancels the inner call.
    void cancel_with_task(const Context& ctx, const std::shared_ptr<detail::MountedCall>& call) {
        call->stop_with(ctx.stop_token(), [weak_state = weak_from_this(), weak_call = std::weak_ptr(call)] {
            auto c = weak_call.lock();
            if (!c) return;
            if (auto state = weak_state.lock()) state->open.leave(c);
            c->abandon("the outer task was cancelled");
        });
    }

    std::string outer_uri_or_same(const std::string& uri) const {
        auto outer = detail::mounted_uri(prefix, uri);
        return outer ? *outer : uri;
    }

    void rewrite(ResourceContents& contents) const {
        std::visit([this](auto& c) { c.uri = outer_uri_or_same(c.uri); }, contents);
    }
    void rewrite(Content& content) const {
        if (auto* link = std::get_if<ResourceLink>(&content)) link->uri = outer_uri_or_same(link->uri);
        if (auto* embedded = std::get_if<EmbeddedResource>(&content)) rewrite(embedded->resource);
    }

    // An MCP App's tool names its view in _meta.ui.resourceUri: the view is read through the mount.
    boost::json::object tool_meta(const Tool& tool) const {
        boost::json::object meta = tool.meta;
        if (auto* ui = meta.if_contains("ui"); ui != nullptr && ui->is_object()) {
            if (auto* uri = ui->as_object().if_contains("resourceUri"); uri != nullptr && uri->is_string()) {
                *uri = outer_uri_or_same(std::string(uri->as_string()));
            }
        }
        return meta;
    }

    // ---- Registration: each add_* registers one entry, or logs why it cannot.

    std::optional<std::string> add_tool(const Tool& tool) {
        auto outer = detail::mounted_name(prefix, tool.name);
        if (!outer) return skipped("tool", tool.name, "the name would be over 64 characters");
        ToolSpec spec{.name = *outer,
                      .description = description_of(tool.description, tool.title, tool.name),
                      .title = tool.title,
                      .annotations = tool.annotations,
                      .icons = tool.icons,
                      .meta = tool_meta(tool),
                      .input_schema = tool.input_schema,
                      .output_schema = tool.output_schema,
                      .task_support = task_support_of(tool.task_support)};
        // The outer call becomes a task when the inner one does (relay): what the inner server
        // asks before its task is asked before the outer task too.
        spec.task_started_by_handler = spec.task_support != TaskSupport::forbidden;
        std::weak_ptr<State> weak = weak_from_this();
        return registered("tool", tool.name, *outer, [&] {
            server.tool(
                std::move(spec),
                [weak, inner = tool.name](const boost::json::object& arguments, Context& ctx) -> CallToolResult {
                    auto self = live(weak);
                    boost::json::object own;
                    own = arguments;  // out of the request's arena (tool.hpp)
                    CallToolResult result = self->forward<CallToolResult>(ctx, [&](Client& client, CallOptions options,
                                                                                   InnerDone done) {
                        client.async_call_tool(inner, std::move(own), std::move(options),
                                               [done = std::move(done)](std::exception_ptr error, CallToolResult r) {
                                                   done(std::move(error), std::move(r));
                                               });
                    });
                    for (Content& c : result.content) self->rewrite(c);
                    drop_envelope(result.meta);
                    return result;
                });
        });
    }

    std::optional<std::string> add_prompt(const Prompt& prompt) {
        auto outer = detail::mounted_name(prefix, prompt.name);
        if (!outer) return skipped("prompt", prompt.name, "the name would be over 64 characters");
        PromptSpec spec{.name = *outer,
                        .description = description_of(prompt.description, prompt.title, prompt.name),
                        .title = prompt.title,
                        .icons = prompt.icons,
                        .meta = prompt.meta,
                        .arguments = prompt.arguments,
                        .complete = completion_of(CompletionRef::prompt(prompt.name))};
        std::weak_ptr<State> weak = weak_from_this();
        return registered("prompt", prompt.name, *outer, [&] {
            server.prompt(
                std::move(spec),
                [weak, inner = prompt.name](const std::map<std::string, std::string>& args,
                                            Context& ctx) -> GetPromptResult {
                    auto self = live(weak);
                    GetPromptResult result =
                        self->forward<GetPromptResult>(ctx, [&](Client& client, CallOptions options, InnerDone done) {
                            client.async_request("prompts/get", prompt_params(inner, args), std::move(options),
                                                 reading<GetPromptResult>(std::move(done)));
                        });
                    for (PromptMessage& m : result.messages) self->rewrite(m.content);
                    drop_envelope(result.meta);
                    return result;
                });
        });
    }

    std::optional<std::string> add_resource(const Resource& resource) {
        auto outer = detail::mounted_uri(prefix, resource.uri);
        if (!outer) return skipped("resource", resource.uri, "the URI has no scheme");
        std::weak_ptr<State> weak = weak_from_this();
        return registered("resource", resource.uri, *outer, [&] {
            server.resource(*outer, resource_spec(resource),
                            [weak, inner = resource.uri](Context& ctx) { return live(weak)->read(ctx, inner); });
        });
    }

    std::optional<std::string> add_template(const ResourceTemplate& t) {
        auto outer = detail::mounted_uri(prefix, t.uri_template);
        if (!outer) return skipped("resource template", t.uri_template, "its scheme is not a fixed one");
        std::weak_ptr<State> weak = weak_from_this();
        auto spec = template_spec(t);
        spec.complete = completion_of(CompletionRef::resource_template(t.uri_template));
        return registered("resource template", t.uri_template, *outer, [&] {
            server.resource_template(
                *outer, std::move(spec),
                [weak, inner = UriTemplate(t.uri_template)](const UriVariables& vars, Context& ctx) {
                    return live(weak)->read(ctx, inner.expand(vars));
                });
        });
    }

    ReadResourceResult read(Context& ctx, const std::string& inner_uri) {
        ReadResourceResult result =
            forward<ReadResourceResult>(ctx, [&](Client& client, CallOptions options, InnerDone done) {
                client.async_request("resources/read", {{"uri", inner_uri}}, std::move(options),
                                     reading<ReadResourceResult>(std::move(done)));
            });
        for (ResourceContents& c : result.contents) rewrite(c);
        drop_envelope(result.meta);
        return result;
    }

    // completion/complete of a mounted prompt or template is asked of the inner server.
    CompletionHandler completion_of(CompletionRef inner) {
        return detail::forwarded_completion(prefix, std::move(inner), [weak = weak_from_this()] {
            auto self = weak.lock();
            return self ? self->client() : nullptr;
        });
    }

    static std::shared_ptr<State> live(const std::weak_ptr<State>& weak) {
        auto self = weak.lock();
        if (!self) throw Error(error_code::internal_error, "the mount was removed");
        return self;
    }

    std::optional<std::string> skipped(std::string_view kind, std::string_view inner, std::string_view why) const {
        detail::log().warn("mount {}: {} {} left out: {}", prefix, kind, inner, why);
        return std::nullopt;
    }

    template <class Register>
    std::optional<std::string> registered(std::string_view kind, std::string_view inner, const std::string& outer,
                                          Register&& do_register) {
        try {
            do_register();
            return outer;
        } catch (const std::invalid_argument& e) {
            return skipped(kind, inner, e.what());  // a name taken already, a schema refused
        }
    }

    // ---- Removal.

    void remove(std::map<std::string, Registered, std::less<>>& kind, ListKind list, bool is_template) {
        for (const auto& [inner, entry] : kind) remove_one(entry.outer, list, is_template);
        kind.clear();
    }
    void remove_one(const std::string& outer, ListKind list, bool is_template) {
        switch (list) {
            case ListKind::tools: server.remove_tool(outer); break;
            case ListKind::prompts: server.remove_prompt(outer); break;
            case ListKind::resources:
                if (is_template) {
                    server.remove_resource_template(outer);
                } else {
                    server.remove_resource(outer);
                }
                break;
        }
    }

    // Makes `registered` (one kind) equal to `items`: `key` names an item, `add` registers it.
    template <class Item, class Key, class Add>
    void sync_kind(std::map<std::string, Registered, std::less<>>& registered, const std::vector<Item>& items,
                   ListKind list, bool is_template, Key key, Add add) {
        std::map<std::string, const Item*, std::less<>> wanted;
        for (const Item& item : items) wanted.emplace(key(item), &item);
        for (auto it = registered.begin(); it != registered.end();) {
            auto found = wanted.find(it->first);
            if (found != wanted.end() && fingerprint(*found->second) == it->second.fingerprint) {
                wanted.erase(found);
                ++it;
                continue;
            }
            remove_one(it->second.outer, list, is_template);
            it = registered.erase(it);
        }
        for (const auto& [k, item] : wanted) {
            if (auto outer = add(*item)) registered.emplace(k, Registered{*outer, fingerprint(*item)});
        }
    }

    void sync_tools(const std::vector<Tool>& items) {
        if (closed) return;
        sync_kind(
            tools, items, ListKind::tools, false, [](const Tool& t) { return t.name; },
            [this](const Tool& t) { return add_tool(t); });
    }
    void sync_prompts(const std::vector<Prompt>& items) {
        if (closed) return;
        sync_kind(
            prompts, items, ListKind::prompts, false, [](const Prompt& p) { return p.name; },
            [this](const Prompt& p) { return add_prompt(p); });
    }
    void sync_resources(const std::vector<Resource>& items) {
        if (closed) return;
        sync_kind(
            resources, items, ListKind::resources, false, [](const Resource& r) { return r.uri; },
            [this](const Resource& r) { return add_resource(r); });
    }
    void sync_templates(const std::vector<ResourceTemplate>& items) {
        if (closed) return;
        sync_kind(
            templates, items, ListKind::resources, true, [](const ResourceTemplate& t) { return t.uri_template; },
            [this](const ResourceTemplate& t) { return add_template(t); });
    }

    // Lists one kind through the client (every page) and syncs it; a failure is logged, and
    // changes nothing.
    void refresh(ListKind kind) {
        auto c = client();
        if (!c) return;
        const char* capability = kind == ListKind::tools     ? "tools"
                                 : kind == ListKind::prompts ? "prompts"
                                                             : "resources";
        try {
            const bool has = c->server_capabilities().contains(capability);
            switch (kind) {
                case ListKind::tools: {
                    auto items = has ? c->all_tools() : std::vector<Tool>{};
                    std::lock_guard lock(mutex);
                    sync_tools(items);
                    break;
                }
                case ListKind::prompts: {
                    auto items = has ? c->all_prompts() : std::vector<Prompt>{};
                    std::lock_guard lock(mutex);
                    sync_prompts(items);
                    break;
                }
                case ListKind::resources: {
                    auto items = has ? c->all_resources() : std::vector<Resource>{};
                    auto templates_now = has ? c->all_resource_templates() : std::vector<ResourceTemplate>{};
                    std::lock_guard lock(mutex);
                    sync_resources(items);
                    sync_templates(templates_now);
                    break;
                }
            }
        } catch (const std::exception& e) {
            detail::log().warn("mount {}: listing its {} failed: {}", prefix, capability, e.what());
        }
    }

    // The URL elicitations passed to 2025 outer sessions, whose completion goes back to them.
    static constexpr std::size_t kMaxUrlElicitations = 1000;
    detail::UrlElicitations url_elicitations{kMaxUrlElicitations};

    // The outer clients' subscriptions to inner URIs (decision 13). Last: its thread, which uses
    // client(), ends before the rest of the state goes.
    detail::MountSubscriptions subscriptions{prefix, [this] { return client(); }};

    // Server::watch_resource_subscriptions: an outer client starts hearing of `uri`.
    std::function<void()> watch(std::string_view uri) {
        auto inner = detail::unmounted_uri(prefix, uri);
        if (!inner) return {};
        if (prefix.empty()) {
            // Every URI is the mount's, the outer server's own too: those of a server that cannot
            // subscribe stay the outer core's alone.
            if (!subscriptions.supported()) return {};
        }
        subscriptions.add(*inner);
        return [weak = weak_from_this(), inner = std::move(*inner)] {
            if (auto self = weak.lock()) self->subscriptions.remove(inner);
        };
    }
};

Mount::Mount(Server& server, std::string prefix, MountClientSource source) {
    if (detail::mount_prefix(prefix) != prefix) {
        throw std::invalid_argument("a mount's prefix must be letters, digits, '_', '-' or '.': \"" + prefix + "\"");
    }
    state_ = std::make_shared<State>(server, std::move(prefix), std::move(source));
    server.watch_resource_subscriptions([weak = std::weak_ptr<State>(state_)](std::string_view uri) {
        auto self = weak.lock();
        return self ? self->watch(uri) : std::function<void()>();
    });
    if (server.options().store != "memory") {
        server.on_broadcast(relay_topic(state_->prefix),
                            [weak = std::weak_ptr<State>(state_)](std::string_view payload) {
                                if (auto self = weak.lock()) self->nodes.receive(payload);
                            });
    }
}

Mount::~Mount() {
    clear();
    {
        std::lock_guard lock(state_->mutex);
        state_->closed = true;
    }
    state_->open.abandon_all();  // before the client closes: it waits for the threads they hold
    state_->nodes.stop();        // the resumes served for other nodes, whose calls were just abandoned
    state_->subscriptions.stop();
    // The source may own the client: close it here, not on a thread of its own pool.
    MountClientSource source;
    std::lock_guard lock(state_->source_mutex);
    source = std::exchange(state_->source, {});
}

const std::string& Mount::prefix() const { return state_->prefix; }

void Mount::sync(const MountCatalog& catalog) {
    std::lock_guard lock(state_->mutex);
    state_->sync_tools(catalog.tools);
    state_->sync_prompts(catalog.prompts);
    state_->sync_resources(catalog.resources);
    state_->sync_templates(catalog.templates);
}

void Mount::refresh() {
    for (ListKind kind : {ListKind::tools, ListKind::prompts, ListKind::resources}) refresh(kind);
}

void Mount::refresh(ListKind kind) { state_->refresh(kind); }

void Mount::clear() {
    std::lock_guard lock(state_->mutex);
    state_->remove(state_->tools, ListKind::tools, false);
    state_->remove(state_->prompts, ListKind::prompts, false);
    state_->remove(state_->resources, ListKind::resources, false);
    state_->remove(state_->templates, ListKind::resources, true);
}

std::size_t Mount::calls_in_flight() const { return state_->open.in_flight(); }

ClientHandlers Mount::request_handlers(ClientHandlers handlers) {
    std::weak_ptr<State> weak = state_;
    // Each request goes to the one mounted call in flight, which puts it to its outer client.
    if (!handlers.elicitation) {
        handlers.elicitation = [weak](const Elicitation& request) {
            return std::get<ElicitResult>(State::live(weak)->open.route()->ask(request));
        };
        handlers.url_elicitation = true;  // asked of the outer client, refused when it lacks the mode
    }
    handlers.elicitation_complete = [weak, then = std::move(handlers.elicitation_complete)](const std::string& id) {
        if (then) then(id);
        if (auto self = weak.lock()) self->pass_elicitation_complete(id);
    };
    if (!handlers.sampling) {
        handlers.sampling = [weak](const SamplingRequest& request) {
            return std::get<SamplingResult>(State::live(weak)->open.route()->ask(request));
        };
    }
    if (!handlers.roots) {
        handlers.roots = [weak] {
            return std::get<std::vector<Root>>(State::live(weak)->open.route()->ask(RootsRequest{}));
        };
    }
    // Log messages go to the outer call they belong to, after what `handlers` did with them.
    handlers.log = [weak, then = std::move(handlers.log)](const LogMessage& message) {
        if (then) then(message);
        if (auto self = weak.lock()) self->pass_log(message);
    };
    return handlers;
}

ClientHandlers Mount::handlers(ClientHandlers handlers) {
    handlers = request_handlers(std::move(handlers));
    std::weak_ptr<State> weak = state_;
    handlers.list_changed = [weak, then = std::move(handlers.list_changed)](ListKind kind) {
        if (auto self = weak.lock()) self->refresh(kind);
        if (then) then(kind);
    };
    handlers.resource_updated = [weak, then = std::move(handlers.resource_updated)](const std::string& uri) {
        if (auto self = weak.lock()) {
            if (auto outer = detail::mounted_uri(self->prefix, uri)) self->server.notify_resource_updated(*outer);
        }
        if (then) then(uri);
    };
    return handlers;
}

std::optional<std::string> Mount::outer_name(std::string_view inner) const {
    return detail::mounted_name(state_->prefix, inner);
}
std::optional<std::string> Mount::outer_uri(std::string_view inner) const {
    return detail::mounted_uri(state_->prefix, inner);
}
std::optional<std::string> Mount::inner_uri(std::string_view outer) const {
    return detail::unmounted_uri(state_->prefix, outer);
}

std::string mount_prefix(std::string_view server_name) { return detail::mount_prefix(server_name); }

std::shared_ptr<Mount> mount(Server& server, std::string prefix, std::shared_ptr<Client> client) {
    auto m = std::make_shared<Mount>(server, std::move(prefix), [client = std::move(client)] { return client; });
    m->refresh();
    return m;
}

std::shared_ptr<Mount> mount(Server& server, std::string prefix, std::shared_ptr<ClientTransport> transport,
                             ClientOptions options) {
    // Its spans go with the server's when the options name no tracing of their own.
    if (!options.tracer && options.tracing.endpoint.empty()) options.tracer = server.tracer();
    // An inner task is followed to its end, and the outer call becomes a task with it.
    options.tasks = true;
    // The client is made after the mount (its handlers hold the mount), and served once connected.
    // A 2026 server tells of list changes only on a listen stream, which lives as long as the client.
    struct Slot {
        std::mutex mutex;
        std::shared_ptr<Client> client;
        Subscription changes;  // ended before the client closes
        // Closed by the thread that drops the mount: close() waits for the client's callbacks (a
        // refresh holding the client too), so the client's last owner is never one of them.
        ~Slot() {
            changes = Subscription();
            if (client) client->close();
        }
    };
    auto slot = std::make_shared<Slot>();
    auto m = std::make_shared<Mount>(server, std::move(prefix), [slot] {
        std::lock_guard lock(slot->mutex);
        return slot->client;
    });
    options.handlers = m->handlers(std::move(options.handlers));
    auto client = std::make_shared<Client>(std::move(transport), std::move(options));
    client->connect();
    Subscription changes;
    if (client->era() == Era::stateless) {
        changes =
            client->listen({.tools_list_changed = true, .prompts_list_changed = true, .resources_list_changed = true});
    }
    {
        std::lock_guard lock(slot->mutex);
        slot->client = std::move(client);
        slot->changes = std::move(changes);
    }
    m->refresh();
    return m;
}

}  // namespace mcp
