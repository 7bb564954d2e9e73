#include "net/response_reader.hpp"

#include "net/http_error.hpp"

#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>

#include <algorithm>
#include <limits>

namespace mcp::net {

namespace http = boost::beast::http;
using boost::beast::error_code;
using boost::beast::string_view;

class ResponseReader::Parser final : public http::basic_parser<false> {
public:
    Parser(ResponseReader& reader, const ResponseLimits& limits) : reader_(reader) {
        constexpr std::size_t kMaxLimit = std::numeric_limits<std::uint32_t>::max();
        header_limit(static_cast<std::uint32_t>(std::min(limits.max_header_bytes, kMaxLimit)));
        body_limit(limits.max_body_bytes ? boost::optional<std::uint64_t>(*limits.max_body_bytes) : boost::none);
        skip(limits.no_body);
        eager(true);
    }

private:
    void on_request_impl(http::verb, string_view, string_view, int, error_code&) override {}
    void on_response_impl(int code, string_view, int, error_code&) override {
        reader_.status_ = static_cast<unsigned>(code);
    }
    void on_field_impl(http::field, string_view name, string_view value, error_code&) override {
        if (!in_trailer_) reader_.headers_.add(std::string(name), std::string(value));
    }
    void on_header_impl(error_code&) override { in_trailer_ = true; }
    void on_body_init_impl(const boost::optional<std::uint64_t>&, error_code&) override {}
    std::size_t on_body_impl(string_view body, error_code&) override {
        reader_.body_.append(body.data(), body.size());
        return body.size();
    }
    void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
    std::size_t on_chunk_body_impl(std::uint64_t, string_view body, error_code& ec) override {
        return on_body_impl(body, ec);
    }
    void on_finish_impl(error_code&) override {}

    ResponseReader& reader_;
    bool in_trailer_ = false;  // fields after the head are a chunked body's trailer: not kept
};

namespace {

HttpError parse_error(const error_code& ec, const ResponseLimits& limits) {
    if (ec == http::error::header_limit) {
        return {HttpErrorKind::headers_too_large,
                "the response's head is over " + std::to_string(limits.max_header_bytes) + " bytes"};
    }
    if (ec == http::error::body_limit) {
        return {HttpErrorKind::body_too_large,
                "the response's body is over " + std::to_string(limits.max_body_bytes.value_or(0)) + " bytes"};
    }
    return {HttpErrorKind::malformed_response, "malformed HTTP response: " + ec.message()};
}

bool interim(unsigned status) { return status >= 100 && status < 200 && status != 101; }

}  // namespace

ResponseReader::ResponseReader(ResponseLimits limits)
    : limits_(limits), parser_(std::make_unique<Parser>(*this, limits_)) {}

ResponseReader::~ResponseReader() = default;

void ResponseReader::restart() {
    parser_ = std::make_unique<Parser>(*this, limits_);
    status_ = 0;
    headers_ = {};
}

void ResponseReader::feed(std::string_view bytes) {
    input_.append(bytes);
    while (!input_.empty() && !parser_->is_done()) {
        error_code ec;
        const auto used = parser_->put(boost::asio::const_buffer(input_.data(), input_.size()), ec);
        input_.erase(0, used);
        if (ec == http::error::need_more) {
            // Beast bounds the head; this bounds a chunk's size line (and its extensions).
            if (input_.size() > limits_.max_header_bytes) {
                throw head_done() ? HttpError(HttpErrorKind::malformed_response, "a chunk header line is too long")
                                  : parse_error(http::error::header_limit, limits_);
            }
            return;
        }
        if (ec) throw parse_error(ec, limits_);
        if (parser_->is_done() && interim(status_)) restart();
    }
}

void ResponseReader::feed_eof() {
    if (parser_->is_done()) return;
    const auto cut = [] {
        return HttpError(HttpErrorKind::connection_closed, "the connection closed before the response was complete");
    };
    if (!parser_->got_some()) throw cut();
    error_code ec;
    parser_->put_eof(ec);
    if (ec) throw cut();
}

bool ResponseReader::head_done() const { return parser_->is_header_done(); }

bool ResponseReader::done() const { return parser_->is_done(); }

bool ResponseReader::reusable() const { return parser_->is_done() && parser_->keep_alive() && input_.empty(); }

}  // namespace mcp::net
