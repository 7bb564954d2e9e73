#include "output.hpp"

#include <boost/json/serialize.hpp>

#include <string>
#include <variant>

namespace mcp_client_tool {

namespace {

std::string string_of(const boost::json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// Base64 length to bytes, for a line that says how big a blob is.
std::size_t decoded_size(const std::string& base64) {
    std::size_t padding = 0;
    for (auto it = base64.rbegin(); it != base64.rend() && *it == '='; ++it) ++padding;
    return base64.size() / 4 * 3 - std::min<std::size_t>(padding, 2);
}

void print_contents(const mcp::ResourceContents& contents, std::ostream& out) {
    if (const auto* text = std::get_if<mcp::TextResourceContents>(&contents)) {
        out << text->text;
        if (!text->text.empty() && text->text.back() != '\n') out << '\n';
        return;
    }
    const auto& blob = std::get<mcp::BlobResourceContents>(contents);
    out << "[" << (blob.mime_type.empty() ? "binary" : blob.mime_type) << ", " << decoded_size(blob.blob)
        << " bytes: " << blob.uri << "]\n";
}

void print_content(const mcp::Content& content, std::ostream& out) {
    std::visit(
        [&out](const auto& c) {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, mcp::TextContent>) {
                out << c.text;
                if (!c.text.empty() && c.text.back() != '\n') out << '\n';
            } else if constexpr (std::is_same_v<T, mcp::ImageContent>) {
                out << "[image " << c.mime_type << ", " << decoded_size(c.data) << " bytes]\n";
            } else if constexpr (std::is_same_v<T, mcp::AudioContent>) {
                out << "[audio " << c.mime_type << ", " << decoded_size(c.data) << " bytes]\n";
            } else if constexpr (std::is_same_v<T, mcp::ResourceLink>) {
                out << "[resource link " << c.uri << (c.name.empty() ? "" : " (" + c.name + ")") << "]\n";
            } else {
                print_contents(c.resource, out);
            }
        },
        content);
}

}  // namespace

void print_tools(const boost::json::array& tools, bool json, std::ostream& out) {
    if (json) {
        out << boost::json::serialize(boost::json::object{{"tools", tools}}) << '\n';
        return;
    }
    for (const auto& t : tools) {
        if (!t.is_object()) continue;
        const auto& tool = t.get_object();
        out << string_of(tool, "name") << '\t' << first_line(string_of(tool, "description")) << '\n';
        const auto* schema = tool.if_contains("inputSchema");
        const auto* properties =
            schema != nullptr && schema->is_object() ? schema->get_object().if_contains("properties") : nullptr;
        if (properties == nullptr || !properties->is_object() || properties->get_object().empty()) continue;
        out << "\targuments:";
        for (const auto& [name, property] : properties->get_object()) {
            const auto type = property.is_object() ? string_of(property.get_object(), "type") : std::string();
            out << ' ' << std::string(name) << (type.empty() ? "" : "=" + type);
        }
        out << '\n';
    }
}

void print_tool_result(const mcp::CallToolResult& result, bool json, std::ostream& out) {
    if (json) {
        out << boost::json::serialize(mcp::to_wire(result)) << '\n';
        return;
    }
    bool text = false;
    for (const auto& c : result.content) {
        print_content(c, out);
        text = text || std::holds_alternative<mcp::TextContent>(c);
    }
    if (result.structured_content && !text) out << boost::json::serialize(*result.structured_content) << '\n';
}

void print_resource(const mcp::ReadResourceResult& result, bool json, std::ostream& out) {
    if (json) {
        out << boost::json::serialize(mcp::to_wire(result)) << '\n';
        return;
    }
    for (const auto& c : result.contents) print_contents(c, out);
}

void print_prompt(const mcp::GetPromptResult& result, bool json, std::ostream& out) {
    if (json) {
        out << boost::json::serialize(mcp::to_wire(result)) << '\n';
        return;
    }
    for (const auto& m : result.messages) {
        out << to_string(m.role) << ": ";
        print_content(m.content, out);
    }
}

}  // namespace mcp_client_tool
