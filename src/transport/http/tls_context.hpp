#pragma once
// The server side of HTTPS: a TLS context from PEM files (TLS 1.2 and 1.3 with forward-secret
// AEAD suites only; client certificates when a client CA is given), and the current one, which
// SIGHUP replaces while connections already open keep theirs.
#include <mcp/transport/http.hpp>

#include <boost/asio/ssl/context.hpp>

#include <memory>
#include <mutex>

namespace mcp::detail {

// Throws std::invalid_argument naming the file and OpenSSL's reason.
std::shared_ptr<boost::asio::ssl::context> make_server_tls(const HttpOptions& options);

class TlsContexts {
public:
    explicit TlsContexts(const HttpOptions& options) : options_(options), current_(make_server_tls(options)) {}
    std::shared_ptr<boost::asio::ssl::context> current() const {
        std::lock_guard lock(mutex_);
        return current_;
    }
    // Loads the files again; on failure the old context stays and the error is logged.
    void reload();

private:
    const HttpOptions& options_;
    mutable std::mutex mutex_;
    std::shared_ptr<boost::asio::ssl::context> current_;
};

}  // namespace mcp::detail
