#include "server/client_requests/wire.hpp"

#include "util/random.hpp"

#include <boost/json/array.hpp>

#include <stdexcept>

namespace mcp::detail {

namespace {

[[noreturn]] void malformed(const std::string& what) { throw std::invalid_argument(what); }

boost::json::object elicitation_params(const ElicitRequest& r) {
    return {{"message", r.message}, {"requestedSchema", r.schema.to_json()}};
}

}  // namespace

boost::json::object url_elicitation_params(const UrlElicitRequest& r) {
    return {{"mode", "url"},
            {"message", r.message},
            {"url", r.url},
            {"elicitationId", r.elicitation_id.empty() ? random_token(12) : r.elicitation_id}};
}

std::string KeyCounter::next(InputKind kind) {
    static constexpr const char* names[] = {"elicitation", "elicitation", "sampling", "roots"};
    return std::string(names[static_cast<int>(kind)]) + "-" + std::to_string(++counts_[kind]);
}

WireRequest to_wire(const InputRequest& request, KeyCounter& keys) {
    return std::visit(
        [&](const auto& r) -> WireRequest {
            using R = std::decay_t<decltype(r)>;
            WireRequest w;
            if constexpr (std::is_same_v<R, ElicitRequest>) {
                w = {InputKind::elicitation, r.key, "elicitation/create", elicitation_params(r), "elicitation"};
            } else if constexpr (std::is_same_v<R, UrlElicitRequest>) {
                w = {InputKind::url_elicitation, r.key, "elicitation/create", url_elicitation_params(r),
                     "elicitation.url"};
            } else if constexpr (std::is_same_v<R, SamplingRequest>) {
                w = {InputKind::sampling, r.key, "sampling/createMessage", mcp::to_wire(r),
                     r.tools.empty() ? "sampling" : "sampling.tools"};
            } else {
                w = {InputKind::roots, r.key, "roots/list", {}, "roots"};
            }
            if (w.key.empty()) w.key = keys.next(w.kind);
            return w;
        },
        request);
}

InputAnswer parse_answer(const WireRequest& request, const boost::json::value& result) {
    switch (request.kind) {
        case InputKind::elicitation:
        case InputKind::url_elicitation: return from_wire<ElicitResult>(result);
        case InputKind::sampling: return from_wire<SamplingResult>(result);
        case InputKind::roots: return from_wire<std::vector<Root>>(result);
    }
    malformed("unknown request kind");
}

boost::json::object capability_object(std::string_view path) {
    boost::json::object root;
    boost::json::object* node = &root;
    while (true) {
        const auto dot = path.find('.');
        auto& child = (*node)[path.substr(0, dot)];
        child = boost::json::object();
        node = &child.as_object();
        if (dot == std::string_view::npos) return root;
        path.remove_prefix(dot + 1);
    }
}

std::string_view kind_name(InputKind kind) {
    switch (kind) {
        case InputKind::sampling: return "sampling";
        case InputKind::roots: return "roots";
        default: return "elicitation";
    }
}

}  // namespace mcp::detail
