// Turning handler return values into result objects (the non-template half of tool.hpp,
// prompt.hpp and resource.hpp).
#include <mcp/server/completion.hpp>
#include <mcp/server/detail/prompt_adapter.hpp>
#include <mcp/server/detail/resource_adapter.hpp>
#include <mcp/server/detail/tool_adapter.hpp>

#include "util/base64.hpp"

#include <boost/json/serialize.hpp>

namespace mcp {

namespace detail {

// Sized up front: each object's table is allocated once, not grown key by key.
boost::json::value text_tool_result(std::string_view text, const boost::json::storage_ptr& storage) {
    boost::json::object block(2, storage);
    block.emplace("type", "text");
    block.emplace("text", text);
    boost::json::array content(storage);
    content.reserve(1);
    content.emplace_back(std::move(block));
    boost::json::object result(2, storage);  // room for structuredContent (structured_tool_result)
    result.emplace("content", std::move(content));
    return result;
}

boost::json::value content_tool_result(std::vector<Content> content) {
    CallToolResult result;
    result.content = std::move(content);
    return to_wire(result);
}

boost::json::value full_tool_result(const CallToolResult& result) { return to_wire(result); }

boost::json::value structured_tool_result(boost::json::value structured) {
    if (!structured.is_object()) {
        boost::json::object wrapper;
        wrapper["result"] = std::move(structured);
        structured = std::move(wrapper);
    }
    // Clients that ignore structuredContent read the same data as text.
    auto result = text_tool_result(boost::json::serialize(structured));
    result.as_object()["structuredContent"] = std::move(structured);
    return result;
}

boost::json::object wrapped_output_schema(boost::json::object inner) {
    boost::json::object schema;
    schema["type"] = "object";
    schema["properties"] = {{"result", std::move(inner)}};
    schema["required"] = boost::json::array{"result"};  // spelled out: clang reads a braced lone string as a string
    return schema;
}

boost::json::value prompt_result(const GetPromptResult& result) { return to_wire(result); }

boost::json::value resource_text(const std::string& uri, const std::string& mime_type, std::string_view text) {
    return to_wire(ReadResourceResult{
        {TextResourceContents{uri, mime_type.empty() ? "text/plain" : mime_type, std::string(text), {}}}, {}});
}

boost::json::value resource_blob(const std::string& uri, const std::string& mime_type, const Blob& blob) {
    std::string mime = !blob.mime_type.empty() ? blob.mime_type
                       : !mime_type.empty()    ? mime_type
                                               : "application/octet-stream";
    return to_wire(ReadResourceResult{{BlobResourceContents{uri, std::move(mime), base64_encode(blob.bytes), {}}}, {}});
}

boost::json::value resource_contents(const std::string& uri, std::vector<ResourceContents> contents) {
    return resource_result(uri, ReadResourceResult{std::move(contents), {}});
}

boost::json::value resource_result(const std::string& uri, ReadResourceResult result) {
    // Contents without a URI belong to the one requested.
    for (auto& c : result.contents) {
        std::visit(
            [&](auto& item) {
                if (item.uri.empty()) item.uri = uri;
            },
            c);
    }
    return to_wire(result);
}

}  // namespace detail

Completer complete_from(std::vector<std::string> values) {
    return [values = std::move(values)](const CompletionRequest& request) {
        std::vector<std::string> out;
        for (const auto& v : values) {
            if (v.starts_with(request.value)) out.push_back(v);
        }
        return out;
    };
}

}  // namespace mcp
