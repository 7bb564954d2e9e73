#include <mcp/protocol/content.hpp>

#include "protocol/wire_reader.hpp"
#include "util/base64.hpp"

#include <boost/json/array.hpp>

#include <stdexcept>

namespace mcp {

namespace {

void put_annotations(boost::json::object& o, const Annotations& a) {
    if (!a.empty()) o["annotations"] = to_wire(a);
}

template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace

TextContent text(std::string text) { return TextContent{std::move(text), {}, {}}; }

ImageContent image(std::span<const unsigned char> bytes, std::string mime_type) {
    return ImageContent{detail::base64_encode(bytes), std::move(mime_type), {}, {}};
}
ImageContent image_base64(std::string base64, std::string mime_type) {
    return ImageContent{std::move(base64), std::move(mime_type), {}, {}};
}
AudioContent audio(std::span<const unsigned char> bytes, std::string mime_type) {
    return AudioContent{detail::base64_encode(bytes), std::move(mime_type), {}, {}};
}
AudioContent audio_base64(std::string base64, std::string mime_type) {
    return AudioContent{std::move(base64), std::move(mime_type), {}, {}};
}

EmbeddedResource embedded_text(std::string uri, std::string text, std::string mime_type) {
    return EmbeddedResource{TextResourceContents{std::move(uri), std::move(mime_type), std::move(text), {}}, {}, {}};
}

EmbeddedResource embedded_blob(std::string uri, std::span<const unsigned char> bytes, std::string mime_type) {
    return EmbeddedResource{
        BlobResourceContents{std::move(uri), std::move(mime_type), detail::base64_encode(bytes), {}}, {}, {}};
}

ResourceLink resource_link(std::string uri, std::string name) {
    ResourceLink link;
    link.uri = std::move(uri);
    link.name = std::move(name);
    return link;
}

PromptMessage user_message(Content content) { return PromptMessage{Role::user, std::move(content)}; }
PromptMessage assistant_message(Content content) { return PromptMessage{Role::assistant, std::move(content)}; }

boost::json::value to_wire(const ResourceContents& contents) {
    return std::visit(Overloaded{
                          [](const TextResourceContents& c) {
                              boost::json::object o;
                              o["uri"] = c.uri;
                              if (!c.mime_type.empty()) o["mimeType"] = c.mime_type;
                              o["text"] = c.text;
                              put_meta(o, c.meta);
                              return boost::json::value(std::move(o));
                          },
                          [](const BlobResourceContents& c) {
                              boost::json::object o;
                              o["uri"] = c.uri;
                              if (!c.mime_type.empty()) o["mimeType"] = c.mime_type;
                              o["blob"] = c.blob;
                              put_meta(o, c.meta);
                              return boost::json::value(std::move(o));
                          },
                      },
                      contents);
}

boost::json::value to_wire(const Content& content) {
    return std::visit(Overloaded{
                          [](const TextContent& c) {
                              boost::json::object o;
                              o["type"] = "text";
                              o["text"] = c.text;
                              put_annotations(o, c.annotations);
                              put_meta(o, c.meta);
                              return o;
                          },
                          [](const ImageContent& c) {
                              boost::json::object o;
                              o["type"] = "image";
                              o["data"] = c.data;
                              o["mimeType"] = c.mime_type;
                              put_annotations(o, c.annotations);
                              put_meta(o, c.meta);
                              return o;
                          },
                          [](const AudioContent& c) {
                              boost::json::object o;
                              o["type"] = "audio";
                              o["data"] = c.data;
                              o["mimeType"] = c.mime_type;
                              put_annotations(o, c.annotations);
                              put_meta(o, c.meta);
                              return o;
                          },
                          [](const EmbeddedResource& c) {
                              boost::json::object o;
                              o["type"] = "resource";
                              o["resource"] = to_wire(c.resource);
                              put_annotations(o, c.annotations);
                              put_meta(o, c.meta);
                              return o;
                          },
                          [](const ResourceLink& c) {
                              boost::json::object o;
                              o["type"] = "resource_link";
                              o["uri"] = c.uri;
                              o["name"] = c.name;
                              if (!c.title.empty()) o["title"] = c.title;
                              if (!c.description.empty()) o["description"] = c.description;
                              if (!c.mime_type.empty()) o["mimeType"] = c.mime_type;
                              if (c.size) o["size"] = *c.size;
                              put_icons(o, c.icons);
                              put_annotations(o, c.annotations);
                              put_meta(o, c.meta);
                              return o;
                          },
                      },
                      content);
}

boost::json::value to_wire(const CallToolResult& result) {
    boost::json::object o;
    boost::json::array content;
    content.reserve(result.content.size());
    for (const auto& c : result.content) content.push_back(to_wire(c));
    o["content"] = std::move(content);
    if (result.structured_content) o["structuredContent"] = *result.structured_content;
    if (result.is_error) o["isError"] = true;
    put_meta(o, result.meta);
    return o;
}

boost::json::value to_wire(const PromptMessage& message) {
    boost::json::object o;
    o["role"] = to_string(message.role);
    o["content"] = to_wire(message.content);
    return o;
}

boost::json::value to_wire(const GetPromptResult& result) {
    boost::json::object o;
    if (!result.description.empty()) o["description"] = result.description;
    boost::json::array messages;
    for (const auto& m : result.messages) messages.push_back(to_wire(m));
    o["messages"] = std::move(messages);
    put_meta(o, result.meta);
    return o;
}

boost::json::value to_wire(const ReadResourceResult& result) {
    boost::json::object o;
    boost::json::array contents;
    for (const auto& c : result.contents) contents.push_back(to_wire(c));
    o["contents"] = std::move(contents);
    put_meta(o, result.meta);
    return o;
}

template <>
ResourceContents from_wire<ResourceContents>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "resource contents");
    auto uri = detail::required_string(o, "uri");
    auto mime_type = detail::optional_string(o, "mimeType");
    if (o.contains("blob"))
        return BlobResourceContents{std::move(uri), std::move(mime_type), detail::required_string(o, "blob"),
                                    meta_from_wire(o)};
    return TextResourceContents{std::move(uri), std::move(mime_type), detail::required_string(o, "text"),
                                meta_from_wire(o)};
}

template <>
ResourceLink from_wire<ResourceLink>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "a resource");
    ResourceLink link;
    link.uri = detail::required_string(o, "uri");
    link.name = detail::required_string(o, "name");
    link.title = detail::optional_string(o, "title");
    link.description = detail::optional_string(o, "description");
    link.mime_type = detail::optional_string(o, "mimeType");
    if (auto size = detail::optional_integer(o, "size"); size && *size >= 0)
        link.size = static_cast<std::uint64_t>(*size);
    link.icons = icons_from_wire(o);
    link.annotations = annotations_from_wire(o);
    link.meta = meta_from_wire(o);
    return link;
}

template <>
Content from_wire<Content>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "a content block");
    const auto type = detail::required_string(o, "type");
    if (type == "text")
        return TextContent{detail::required_string(o, "text"), annotations_from_wire(o), meta_from_wire(o)};
    if (type == "image" || type == "audio") {
        auto data = detail::required_string(o, "data");
        auto mime_type = detail::required_string(o, "mimeType");
        if (type == "image")
            return ImageContent{std::move(data), std::move(mime_type), annotations_from_wire(o), meta_from_wire(o)};
        return AudioContent{std::move(data), std::move(mime_type), annotations_from_wire(o), meta_from_wire(o)};
    }
    if (type == "resource") {
        const auto* resource = o.if_contains("resource");
        if (resource == nullptr) throw std::invalid_argument("missing \"resource\"");
        return EmbeddedResource{from_wire<ResourceContents>(*resource), annotations_from_wire(o), meta_from_wire(o)};
    }
    if (type == "resource_link") return from_wire<ResourceLink>(wire);
    throw std::invalid_argument("unknown content type \"" + type + "\"");
}

namespace {

std::vector<Content> tool_result_content(const boost::json::object& o) {
    std::vector<Content> content;
    if (const auto* blocks = detail::optional_array(o, "content")) {
        content.reserve(blocks->size());
        for (const auto& block : *blocks) content.push_back(from_wire<Content>(block));
    }
    return content;
}

}  // namespace

template <>
CallToolResult from_wire<CallToolResult>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "a tool result");
    CallToolResult result;
    result.content = tool_result_content(o);
    if (const auto* structured = o.if_contains("structuredContent"); structured != nullptr && !structured->is_null())
        result.structured_content = *structured;
    result.is_error = detail::optional_bool(o, "isError");
    result.meta = meta_from_wire(o);
    return result;
}

CallToolResult tool_result_from_wire(boost::json::value&& wire) {
    detail::object_of(wire, "a tool result");
    auto& o = wire.get_object();
    auto content = tool_result_content(o);
    std::optional<boost::json::value> structured;
    if (auto* found = o.if_contains("structuredContent"); found != nullptr && !found->is_null())
        structured.emplace(std::move(*found));
    const bool is_error = detail::optional_bool(o, "isError");
    // Constructed, not assigned: a moved-from value's storage comes along (an assignment across
    // storages would copy).
    auto* meta = o.if_contains("_meta");
    if (meta != nullptr && meta->is_object())
        return {std::move(content), std::move(structured), is_error,
                boost::json::object(std::move(meta->get_object()))};
    return {std::move(content), std::move(structured), is_error, meta_from_wire(o)};
}

template <>
PromptMessage from_wire<PromptMessage>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "a prompt message");
    const auto role = parse_role(detail::required_string(o, "role"));
    if (!role) throw std::invalid_argument("\"role\" must be \"user\" or \"assistant\"");
    const auto* content = o.if_contains("content");
    if (content == nullptr) throw std::invalid_argument("missing \"content\"");
    return PromptMessage{*role, from_wire<Content>(*content)};
}

template <>
GetPromptResult from_wire<GetPromptResult>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "a prompt result");
    GetPromptResult result;
    result.description = detail::optional_string(o, "description");
    if (const auto* messages = detail::optional_array(o, "messages")) {
        for (const auto& m : *messages) result.messages.push_back(from_wire<PromptMessage>(m));
    }
    result.meta = meta_from_wire(o);
    return result;
}

template <>
ReadResourceResult from_wire<ReadResourceResult>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "a resource result");
    ReadResourceResult result;
    if (const auto* contents = detail::optional_array(o, "contents")) {
        for (const auto& c : *contents) result.contents.push_back(from_wire<ResourceContents>(c));
    }
    result.meta = meta_from_wire(o);
    return result;
}

}  // namespace mcp
