#pragma once
// Content blocks and the results handlers may return.
//
//   return mcp::text("done");
//   return mcp::image(png_bytes, "image/png");
//   return mcp::CallToolResult{.content = {mcp::text("a"), mcp::resource_link("file:///x", "x")}};
#include <mcp/protocol/types.hpp>

#include <boost/json/value.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcp {

struct TextContent {
    std::string text;
    Annotations annotations;
    boost::json::object meta;
};

struct ImageContent {
    std::string data;  // base64
    std::string mime_type;
    Annotations annotations;
    boost::json::object meta;
};

struct AudioContent {
    std::string data;  // base64
    std::string mime_type;
    Annotations annotations;
    boost::json::object meta;
};

struct TextResourceContents {
    std::string uri;
    std::string mime_type;
    std::string text;
    boost::json::object meta;
};

struct BlobResourceContents {
    std::string uri;
    std::string mime_type;
    std::string blob;  // base64
    boost::json::object meta;
};

using ResourceContents = std::variant<TextResourceContents, BlobResourceContents>;

struct EmbeddedResource {
    ResourceContents resource;
    Annotations annotations;
    boost::json::object meta;
};

struct ResourceLink {
    std::string uri;
    std::string name;
    std::string title;
    std::string description;
    std::string mime_type;
    std::optional<std::uint64_t> size;
    std::vector<Icon> icons;
    Annotations annotations;
    boost::json::object meta;
};

using Content = std::variant<TextContent, ImageContent, AudioContent, EmbeddedResource, ResourceLink>;

// The full result of tools/call, for handlers that want every field.
struct CallToolResult {
    std::vector<Content> content;
    std::optional<boost::json::value> structured_content;
    bool is_error = false;
    boost::json::object meta;
};

struct PromptMessage {
    Role role = Role::user;
    Content content;
};

struct GetPromptResult {
    std::string description;
    std::vector<PromptMessage> messages;
    boost::json::object meta;
};

struct ReadResourceResult {
    std::vector<ResourceContents> contents;
    boost::json::object meta;
};

// Raw bytes for a binary resource; the framework base64-encodes them.
struct Blob {
    std::vector<unsigned char> bytes;
    std::string mime_type;
};

// Builders.
TextContent text(std::string text);
ImageContent image(std::span<const unsigned char> bytes, std::string mime_type);
ImageContent image_base64(std::string base64, std::string mime_type);
AudioContent audio(std::span<const unsigned char> bytes, std::string mime_type);
AudioContent audio_base64(std::string base64, std::string mime_type);
EmbeddedResource embedded_text(std::string uri, std::string text, std::string mime_type = "text/plain");
EmbeddedResource embedded_blob(std::string uri, std::span<const unsigned char> bytes, std::string mime_type);
ResourceLink resource_link(std::string uri, std::string name);
PromptMessage user_message(Content content);
PromptMessage assistant_message(Content content);

boost::json::value to_wire(const Content& content);
boost::json::value to_wire(const ResourceContents& contents);
boost::json::value to_wire(const CallToolResult& result);
boost::json::value to_wire(const PromptMessage& message);
boost::json::value to_wire(const GetPromptResult& result);
boost::json::value to_wire(const ReadResourceResult& result);

// What a server sent, read back (types.hpp: from_wire). A content block of a type not modelled
// here is malformed.
template <>
Content from_wire<Content>(const boost::json::value& wire);
template <>
ResourceContents from_wire<ResourceContents>(const boost::json::value& wire);
// A resource link's fields, with or without its "type" (a resources/list item has none).
template <>
ResourceLink from_wire<ResourceLink>(const boost::json::value& wire);
template <>
CallToolResult from_wire<CallToolResult>(const boost::json::value& wire);
// The same read of a result the caller owns: what it keeps (_meta, structuredContent) moves out
// of `wire`, with the storage it was parsed into, instead of being copied.
CallToolResult tool_result_from_wire(boost::json::value&& wire);
template <>
PromptMessage from_wire<PromptMessage>(const boost::json::value& wire);
template <>
GetPromptResult from_wire<GetPromptResult>(const boost::json::value& wire);
template <>
ReadResourceResult from_wire<ReadResourceResult>(const boost::json::value& wire);

}  // namespace mcp
