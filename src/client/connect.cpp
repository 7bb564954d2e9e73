// Client::connect: which revision to speak (docs/adr/0023-client.md, "Negotiation and MRTR").
#include "client/client_core.hpp"
#include "client/negotiation.hpp"
#include "protocol/wire_reader.hpp"
#include "util/log.hpp"

#include <mcp/protocol/errors.hpp>

#include <algorithm>
#include <stdexcept>

namespace mcp {

namespace {

constexpr int kMaxProbes = 3;

[[noreturn]] void legacy_sse_server() {
    throw IncompatibleServer("the server speaks the 2024-11-05 HTTP+SSE transport, which this transport cannot");
}

std::string joined(const std::vector<std::string>& versions) {
    std::string out;
    for (const auto& v : versions) out += (out.empty() ? "" : ", ") + v;
    return out.empty() ? "none" : out;
}

}  // namespace

void Client::Impl::connect(const CallOptions& call_options) {
    check_may_block();
    {
        std::lock_guard lock(mutex);
        if (opened || closed) throw std::logic_error("mcp::Client::connect() may be called once, before close()");
    }
    peer->open();
    {
        std::lock_guard lock(mutex);
        opened = true;
    }
    if (!detail::is_modern_version(versions.front())) return initialize({}, call_options);
    if (options.protocol_version != "auto") {
        // Pinned: the probe's answer is the answer and an error stands, but for an unsupported
        // version error that names the pinned version as supported: a refusal of this request, not
        // of the version, asked once more.
        set_negotiated(Era::stateless, versions.front());
        const auto discover = [&] {
            auto spec = std::make_shared<CallSpec>();
            spec->method = "server/discover";
            spec->options = call_options;
            spec->options.fresh = true;
            adopt_discover(detail::object_of(call(std::move(spec)), "a discover result"), versions.front());
        };
        try {
            return discover();
        } catch (const Error& e) {
            if (e.code() != error_code::unsupported_protocol_version ||
                detail::classify_probe_error(e.code(), e.data(), versions.front(), versions).version !=
                    versions.front())
                throw;
        }
        return discover();
    }
    negotiate(call_options);
}

void Client::Impl::negotiate(const CallOptions& call_options) {
    std::string requested = versions.front();
    for (int probes = 0; probes < kMaxProbes; ++probes) {
        const auto verdict = probe(requested, call_options);
        switch (verdict.verdict) {
            case detail::Verdict::modern:
                if (!verdict.retry) return;
                requested = verdict.version;
                continue;
            case detail::Verdict::legacy: return initialize(verdict.version, call_options);
            case detail::Verdict::legacy_sse:
                if (!transport->switch_to_legacy_sse()) legacy_sse_server();
                return initialize(verdict.version, call_options);
            case detail::Verdict::incompatible:
            case detail::Verdict::failed:
                throw IncompatibleServer(
                    "no protocol version in common: the server speaks " + joined(verdict.server_versions),
                    verdict.server_versions);
        }
    }
    throw IncompatibleServer("the server refused every version it named");
}

// server/discover in `requested`: what comes back, or its silence, says which era the server is of.
detail::ProbeVerdict Client::Impl::probe(const std::string& requested, const CallOptions& call_options) {
    set_negotiated(Era::stateless, requested);
    auto spec = std::make_shared<CallSpec>();
    spec->method = "server/discover";
    spec->options = call_options;
    spec->options.timeout = options.probe_timeout;
    spec->options.fresh = true;
    try {
        const auto result = call(std::move(spec));
        const auto& discovered = detail::object_of(result, "a discover result");
        auto verdict = detail::classify_discover_result(discovered, requested, versions);
        if (verdict.verdict == detail::Verdict::modern && !verdict.retry) adopt_discover(discovered, verdict.version);
        return verdict;
    } catch (const Error& e) {
        return detail::classify_probe_error(e.code(), e.data(), requested, versions);
    } catch (const RequestTimeout&) {
        detail::log().info("client: no answer to server/discover in {} ms: a legacy server",
                           options.probe_timeout.count());
        return detail::classify_probe_silence();
    } catch (const TransportError& e) {
        if (e.http_status() == 0) throw;
        auto verdict =
            detail::classify_probe_http(e.http_status(), e.body(), detail::HttpStage::probe, requested, versions);
        if (verdict.verdict == detail::Verdict::failed) throw;
        return verdict;
    } catch (const std::invalid_argument& e) {
        throw ProtocolViolation(e.what());
    }
}

void Client::Impl::adopt_discover(const boost::json::object& result, const std::string& version) {
    Implementation info;
    if (const auto* meta = result.if_contains("_meta"); meta != nullptr && meta->is_object()) {
        if (const auto* server = meta->as_object().if_contains(detail::kServerInfoKey)) {
            try {
                info = from_wire<Implementation>(*server);
            } catch (const std::invalid_argument& e) {
                detail::log().warn("client: the server's serverInfo is malformed: {}", e.what());
            }
        }
    }
    std::vector<std::string> supported;
    if (const auto* list = result.if_contains("supportedVersions"); list != nullptr && list->is_array()) {
        for (const auto& v : list->get_array()) {
            if (v.is_string()) supported.emplace_back(v.get_string());
        }
    }
    std::lock_guard lock(mutex);
    server_info = std::move(info);
    server_capabilities = detail::optional_object(result, "capabilities");
    instructions = detail::optional_string(result, "instructions");
    server_versions = supported.empty() ? std::vector<std::string>{version} : std::move(supported);
}

// The 2025 handshake, newest version first: an error to one version tries the next older one.
void Client::Impl::initialize(std::string_view preferred, const CallOptions& call_options) {
    std::vector<std::string> legacy;
    for (const auto& v : versions) {
        if (!detail::is_modern_version(v)) legacy.push_back(v);
    }
    if (auto at = std::find(legacy.begin(), legacy.end(), preferred); at != legacy.end())
        legacy.erase(legacy.begin(), at);
    if (legacy.empty())
        throw IncompatibleServer("the server speaks only versions before 2026-07-28, which this client does not");

    std::exception_ptr refused;
    bool switched = false;  // to the HTTP+SSE transport, at most once
    for (std::size_t i = 0; i < legacy.size();) {
        const auto& offered = legacy[i];
        set_negotiated(Era::sessions, offered);
        auto spec = std::make_shared<CallSpec>();
        spec->method = "initialize";
        spec->params = {{"protocolVersion", offered}, {"capabilities", capabilities}, {"clientInfo", client_info}};
        spec->options = call_options;
        boost::json::value result;
        try {
            result = call(std::move(spec));
        } catch (const Error&) {
            refused = std::current_exception();
            ++i;
            continue;
        } catch (const TransportError& e) {
            // HTTP: a server of the 2024-11-05 HTTP+SSE transport refuses the POST itself; the
            // transport switches to that one, and the same initialize goes again there.
            if (switched || e.http_status() == 0 ||
                detail::classify_probe_http(e.http_status(), e.body(), detail::HttpStage::initialize, offered, versions)
                        .verdict != detail::Verdict::legacy_sse)
                throw;
            if (!transport->switch_to_legacy_sse()) legacy_sse_server();
            switched = true;
            continue;
        }
        try {
            const auto& o = detail::object_of(result, "an initialize result");
            const auto agreed = detail::required_string(o, "protocolVersion");
            if (std::find(versions.begin(), versions.end(), agreed) == versions.end())
                throw IncompatibleServer(
                    "the server answered initialize in " + agreed + ", which this client does not speak", {agreed});
            const auto* info = o.if_contains("serverInfo");
            auto server = info != nullptr ? from_wire<Implementation>(*info) : Implementation{};
            set_negotiated(Era::sessions, agreed);
            std::lock_guard lock(mutex);
            server_info = std::move(server);
            server_capabilities = detail::optional_object(o, "capabilities");
            instructions = detail::optional_string(o, "instructions");
            server_versions = {agreed};
        } catch (const std::invalid_argument& e) {
            throw ProtocolViolation(std::string("malformed initialize result: ") + e.what());
        }
        peer->notify("notifications/initialized", {});
        std::optional<LogLevel> level;
        {
            std::lock_guard lock(mutex);
            level = log_level;
        }
        if (level && server_capabilities.contains("logging"))
            call("logging/setLevel", {{"level", to_string(*level)}}, call_options);
        return;
    }
    std::rethrow_exception(refused);
}

void Client::Impl::set_negotiated(Era era, std::string version) {
    peer->set_protocol_version(version);
    std::lock_guard lock(mutex);
    version_ = std::move(version);
    era_.store(era, std::memory_order_release);
}

}  // namespace mcp
