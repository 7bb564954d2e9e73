// The token stores of mcp/client/oauth.hpp.
#include <mcp/client/oauth.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace mcp {

namespace {

namespace json = boost::json;

json::object to_json(const StoredAuthorization& a) {
    return {{"issuer", a.issuer},
            {"client_id", a.client_id},
            {"client_secret", a.client_secret},
            {"token_endpoint_auth_method", a.token_endpoint_auth_method},
            {"access_token", a.access_token},
            {"token_type", a.token_type},
            {"refresh_token", a.refresh_token},
            {"scope", a.scope},
            {"expires_at", a.expires_at}};
}

std::string text_of(const json::object& o, std::string_view name) {
    const auto* v = o.if_contains(name);
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

StoredAuthorization from_json(const json::object& o) {
    StoredAuthorization a;
    a.issuer = text_of(o, "issuer");
    a.client_id = text_of(o, "client_id");
    a.client_secret = text_of(o, "client_secret");
    a.token_endpoint_auth_method = text_of(o, "token_endpoint_auth_method");
    a.access_token = text_of(o, "access_token");
    a.token_type = text_of(o, "token_type");
    a.refresh_token = text_of(o, "refresh_token");
    a.scope = text_of(o, "scope");
    if (const auto* v = o.if_contains("expires_at"); v != nullptr && v->is_int64()) a.expires_at = v->get_int64();
    return a;
}

json::object read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    std::stringstream text;
    text << in.rdbuf();
    boost::system::error_code ec;
    auto value = json::parse(text.str(), ec);
    if (ec || !value.is_object()) return {};
    return std::move(value.get_object());
}

void write_file(const std::string& path, const json::object& entries) {
    const auto temporary = path + ".tmp";
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) throw std::runtime_error("cannot write " + temporary + ": " + std::strerror(errno));
    ::fchmod(fd, 0600);  // an older file's looser mode, or the umask's, is not kept
    const auto text = json::serialize(entries);
    std::size_t written = 0;
    while (written < text.size()) {
        const auto n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ::close(fd);
            throw std::runtime_error("cannot write " + temporary + ": " + std::strerror(errno));
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0)
        throw std::runtime_error("cannot write " + temporary + ": " + std::strerror(errno));
    if (::rename(temporary.c_str(), path.c_str()) != 0)
        throw std::runtime_error("cannot replace " + path + ": " + std::strerror(errno));
}

}  // namespace

std::optional<StoredAuthorization> MemoryTokenStore::load(const std::string& resource) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(resource);
    if (it == entries_.end()) return std::nullopt;
    return it->second;
}

void MemoryTokenStore::save(const std::string& resource, const StoredAuthorization& authorization) {
    std::lock_guard lock(mutex_);
    entries_[resource] = authorization;
}

void MemoryTokenStore::erase(const std::string& resource) {
    std::lock_guard lock(mutex_);
    entries_.erase(resource);
}

FileTokenStore::FileTokenStore(std::string path) : path_(std::move(path)) {}

std::optional<StoredAuthorization> FileTokenStore::load(const std::string& resource) {
    std::lock_guard lock(mutex_);
    const auto entries = read_file(path_);
    const auto* entry = entries.if_contains(resource);
    if (entry == nullptr || !entry->is_object()) return std::nullopt;
    return from_json(entry->get_object());
}

void FileTokenStore::save(const std::string& resource, const StoredAuthorization& authorization) {
    std::lock_guard lock(mutex_);
    auto entries = read_file(path_);
    entries[resource] = to_json(authorization);
    write_file(path_, entries);
}

void FileTokenStore::erase(const std::string& resource) {
    std::lock_guard lock(mutex_);
    auto entries = read_file(path_);
    if (entries.erase(resource) > 0) write_file(path_, entries);
}

}  // namespace mcp
