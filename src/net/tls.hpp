#pragma once
// The client side of TLS: one context from TlsOptions (the system's roots or a CA file, TLS 1.2
// at least, an optional client certificate), and each connection's server name: SNI and the name
// or address the server's certificate must hold.
#include <mcp/net/http_options.hpp>

#include <boost/system/error_code.hpp>

#include <functional>
#include <memory>
#include <string>

struct ssl_st;
namespace boost::asio::ssl {
class context;
}

namespace mcp::net {

// Throws std::invalid_argument naming a file that cannot be used.
std::shared_ptr<boost::asio::ssl::context> make_client_tls(const TlsOptions& options);

// Before the handshake. SNI is sent for a host name, never for an IP address (RFC 6066 §3).
// Throws HttpError (tls) when OpenSSL refuses the name.
void set_server_name(ssl_st* session, const std::string& host, bool verify);

// Runs one step that loads `file` into a context; throws std::invalid_argument naming the file and
// OpenSSL's reason when it fails. `what`: "certificate", "key", "CA"...
void load_tls_file(const char* what, const std::string& file,
                   const std::function<void(boost::system::error_code&)>& step);

}  // namespace mcp::net
