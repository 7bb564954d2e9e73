#include <mcp/protocol/content.hpp>

#include "util/base64.hpp"

#include <boost/json/array.hpp>

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

}  // namespace mcp
