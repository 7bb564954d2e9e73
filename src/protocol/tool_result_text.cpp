#include "protocol/tool_result_text.hpp"

#include <boost/json/basic_parser_impl.hpp>

#include <string>
#include <utility>

namespace mcp::detail {

namespace {

using boost::json::error_code;
using boost::json::string_view;

// Follows the parse through {"content":[{"type":"text","text":…},…],"isError":…} and gives up
// (returns false) at anything else.
class TextResultHandler {
public:
    static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);

    CallToolResult result;
    bool gave_up = false;  // the shape is not one this handler reads

    bool on_document_begin(error_code& /*ec*/) { return true; }
    bool on_document_end(error_code& /*ec*/) { return true; }

    bool on_object_begin(error_code& ec) {
        if (at_ == At::start) return go(At::result);
        if (at_ == At::content) {
            block_ = {};
            return go(At::block);
        }
        return give_up(ec);
    }
    bool on_object_end(std::size_t /*n*/, error_code& ec) {
        if (at_ == At::block) {
            if (block_.type != "text" || !block_.has_text) return give_up(ec);
            result.content.emplace_back(TextContent{std::move(block_.text), {}, {}});
            return go(At::content);
        }
        return go(At::done);
    }
    bool on_array_begin(error_code& ec) { return at_ == At::content_value ? go(At::content) : give_up(ec); }
    bool on_array_end(std::size_t /*n*/, error_code& /*ec*/) { return go(At::result); }

    bool on_key_part(string_view part, std::size_t /*n*/, error_code& /*ec*/) {
        key_.append(part.data(), part.size());
        return true;
    }
    bool on_key(string_view last, std::size_t /*n*/, error_code& ec) {
        std::string_view key(last.data(), last.size());
        if (!key_.empty()) {
            key_.append(last.data(), last.size());
            key = key_;
        }
        const bool known = at_ == At::result ? result_key(key) : at_ == At::block && block_key(key);
        key_.clear();
        return known || give_up(ec);
    }

    bool on_string_part(string_view part, std::size_t /*n*/, error_code& ec) {
        if (target_ == nullptr) return give_up(ec);
        target_->append(part.data(), part.size());
        return true;
    }
    bool on_string(string_view last, std::size_t /*n*/, error_code& ec) {
        if (target_ == nullptr) return give_up(ec);
        target_->append(last.data(), last.size());
        target_ = nullptr;
        return go(At::block);
    }
    bool on_bool(bool value, error_code& ec) {
        if (at_ != At::is_error_value) return give_up(ec);
        result.is_error = value;
        return go(At::result);
    }

    bool on_number_part(string_view /*part*/, error_code& ec) { return give_up(ec); }
    bool on_int64(std::int64_t /*n*/, string_view /*text*/, error_code& ec) { return give_up(ec); }
    bool on_uint64(std::uint64_t /*n*/, string_view /*text*/, error_code& ec) { return give_up(ec); }
    bool on_double(double /*n*/, string_view /*text*/, error_code& ec) { return give_up(ec); }
    bool on_null(error_code& ec) { return give_up(ec); }
    bool on_comment_part(string_view /*part*/, error_code& ec) { return give_up(ec); }
    bool on_comment(string_view /*text*/, error_code& ec) { return give_up(ec); }

private:
    enum class At { start, result, content_value, is_error_value, content, block, block_value, done };

    struct Block {
        std::string type;
        std::string text;
        bool has_type = false;
        bool has_text = false;
    };

    bool go(At at) {
        at_ = at;
        return true;
    }
    bool give_up(error_code& ec) {
        gave_up = true;
        ec = boost::json::error::extra_data;  // any error: the caller looks at gave_up
        return false;
    }
    // A member seen twice is left to the document path, which decides what that means.
    bool result_key(std::string_view key) {
        if (key == "content" && !seen_content_) {
            seen_content_ = true;
            return go(At::content_value);
        }
        if (key == "isError" && !seen_is_error_) {
            seen_is_error_ = true;
            return go(At::is_error_value);
        }
        return false;
    }
    bool block_key(std::string_view key) {
        if (key == "type" && !block_.has_type) {
            block_.has_type = true;
            target_ = &block_.type;
            return go(At::block_value);
        }
        if (key == "text" && !block_.has_text) {
            block_.has_text = true;
            target_ = &block_.text;
            return go(At::block_value);
        }
        return false;
    }

    At at_ = At::start;
    Block block_;
    std::string key_;                // a key that came in parts
    std::string* target_ = nullptr;  // where the string being read goes
    bool seen_content_ = false;
    bool seen_is_error_ = false;
};

}  // namespace

std::optional<CallToolResult> plain_tool_result(std::string_view text, std::size_t max_depth) {
    boost::json::parse_options options;
    options.max_depth = max_depth;
    boost::json::basic_parser<TextResultHandler> reader(options);
    error_code ec;
    const auto read = reader.write_some(false, text.data(), text.size(), ec);
    if (ec || read != text.size()) return std::nullopt;
    return std::move(reader.handler().result);
}

}  // namespace mcp::detail
