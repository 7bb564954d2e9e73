#include "server/response_text.hpp"

#include "json/text_writer.hpp"
#include "server/core.hpp"

#include <charconv>

namespace mcp::detail {

namespace {

constexpr std::size_t kFirstReserve = 480;  // a typical tool result in one allocation

bool stamps_fit(const boost::json::object& result, Cache cache) {
    if (result.contains("resultType") || result.contains("_meta")) return false;
    return cache == Cache::none || !(result.contains("ttlMs") || result.contains("cacheScope"));
}

void append_cache_hints(std::string& out, const ServerCore& core, Cache cache) {
    const auto ttl = cache == Cache::list ? core.options.cache.list_ttl : core.options.cache.read_ttl;
    out += R"(,"ttlMs":)";
    char digits[24];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, ttl.count()).ptr);
    out += core.options.cache.public_scope ? R"(,"cacheScope":"public")" : R"(,"cacheScope":"private")";
}

}  // namespace

std::optional<std::string> response_text(const ServerCore& core, const boost::json::value& id, Era era, Cache cache,
                                         const boost::json::value& result) {
    const auto* object = result.if_object();
    if (object == nullptr) return std::nullopt;
    const bool stamped = era == Era::stateless;
    if (stamped && !stamps_fit(*object, cache)) return std::nullopt;
    std::string text;
    text.reserve(kFirstReserve);
    text += R"({"jsonrpc":"2.0","id":)";
    append_json(text, id);
    text += R"(,"result":{)";
    append_members(text, *object);
    if (stamped) {
        if (!object->empty()) text += ',';
        text += core.stateless_stamp_text;
        if (cache != Cache::none) append_cache_hints(text, core, cache);
    }
    text += "}}";
    return text;
}

}  // namespace mcp::detail
