// Host configuration files ({"mcpServers": ...} and VS Code's {"servers": ...}) read into
// ServerConfig entries, every field checked before anything is started.
#include <mcp/client/server_config.hpp>

#include "client/config/dotenv.hpp"
#include "client/config/variables.hpp"

#include <boost/json/parser.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace mcp {

namespace {

constexpr std::size_t kMaxNameBytes = 128;
constexpr std::size_t kMaxDepth = 32;

std::string describe(const std::string& server, const std::string& field, const std::string& problem,
                     const std::string& file) {
    std::string out = file.empty() ? "" : file + ": ";
    if (!server.empty()) out += "server \"" + server + "\"" + (field.empty() ? ": " : ", ");
    if (!field.empty()) out += field + ": ";
    return out + problem;
}

// Line and column (from 1) of a byte offset, for a parse error.
std::string position(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    const auto before = text.substr(0, offset);
    const auto line = std::count(before.begin(), before.end(), '\n') + 1;
    const auto line_start = before.rfind('\n');
    const auto column = offset - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1;
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

boost::json::value parse_json(std::string_view text) {
    boost::json::parse_options options;
    options.allow_comments = true;         // VS Code writes JSONC
    options.allow_trailing_commas = true;  // and so do people
    options.max_depth = kMaxDepth;
    boost::json::parser parser({}, options);
    boost::system::error_code ec;
    const auto used = parser.write(text.data(), text.size(), ec);
    if (ec) throw ConfigError({}, {}, "not JSON (" + position(text, used) + "): " + ec.message());
    return parser.release();
}

bool has_control(std::string_view s) {
    return std::any_of(s.begin(), s.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
}

bool header_name_char(unsigned char c) {
    static constexpr std::string_view kSpecials = "!#$%&'*+-.^_`|~";
    return std::isalnum(c) != 0 || kSpecials.find(static_cast<char>(c)) != std::string_view::npos;
}

std::optional<std::string> process_environment(const std::string& name) {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
}

std::string read_bounded(const std::filesystem::path& path, std::size_t max_bytes) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw std::invalid_argument("not a file one can read");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::invalid_argument(std::string("cannot be read: ") + std::strerror(errno));
    std::string text(max_bytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes) throw std::invalid_argument("larger than " + std::to_string(max_bytes) + " bytes");
    return text;
}

// One entry's fields, read with errors that name the server and the field.
class EntryReader {
public:
    EntryReader(const std::string& server, const boost::json::object& entry, const ConfigOptions& options,
                const detail::VariableContext& variables)
        : server_(server), entry_(entry), options_(options), variables_(variables) {}

    ServerConfig read() {
        ServerConfig config;
        config.name = server_;
        config.transport = kind();
        if (config.transport == ServerTransportKind::stdio) {
            for (const char* remote : {"url", "headers", "oauth"}) refuse(remote, "is for http and sse servers");
            config.command = text("command").value_or("");
            if (config.command.empty())
                fail("command",
                     "a stdio server needs a command (a server the host starts) or, for a remote one, a url");
            check_no_nul("command", config.command);
            config.args = texts("args");
            config.cwd = path(text("cwd").value_or(""));
            config.env = env_file();
            for (auto& variable : pairs("env", true)) {
                std::erase_if(config.env, [&](const auto& kv) { return kv.first == variable.first; });
                config.env.push_back(std::move(variable));
            }
            config.limits = limits();
        } else {
            for (const char* local : {"command", "args", "env", "envFile", "cwd", "limits"})
                refuse(local, "is for stdio servers, and this one is " + std::string(to_string(config.transport)));
            config.url = text("url").value_or("");
            check_url(config.url);
            config.headers = pairs("headers", false);
            config.oauth = oauth();
        }
        return config;
    }

private:
    [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
        throw ConfigError(server_, field, problem);
    }

    const boost::json::value* field(const char* key) const {
        const auto* v = entry_.if_contains(key);
        return v == nullptr || v->is_null() ? nullptr : v;
    }

    void refuse(const char* key, const std::string& why) const {
        if (field(key) != nullptr) fail(key, why);
    }

    std::string substituted(const std::string& where, std::string_view value) const {
        try {
            return detail::substitute_variables(value, variables_);
        } catch (const std::invalid_argument& e) {
            fail(where, e.what());
        }
    }

    std::optional<std::string> text(const char* key) const {
        const auto* v = field(key);
        if (v == nullptr) return std::nullopt;
        if (!v->is_string()) fail(key, "expected a string");
        return substituted(key, v->get_string());
    }

    std::vector<std::string> texts(const char* key) const {
        std::vector<std::string> out;
        const auto* v = field(key);
        if (v == nullptr) return out;
        if (!v->is_array()) fail(key, "expected an array of strings");
        for (std::size_t i = 0; i < v->get_array().size(); ++i) {
            const auto& item = v->get_array()[i];
            const auto where = std::string(key) + "[" + std::to_string(i) + "]";
            // Hosts pass numbers in args as their text ("--port", 8080).
            if (item.is_number()) {
                out.push_back(boost::json::serialize(item));
                continue;
            }
            if (!item.is_string()) fail(where, "expected a string");
            out.push_back(substituted(where, item.get_string()));
            check_no_nul(where, out.back());
        }
        return out;
    }

    // env (names of variables) or headers (HTTP field names), each value a string (or a number).
    std::vector<std::pair<std::string, std::string>> pairs(const char* key, bool environment) const {
        std::vector<std::pair<std::string, std::string>> out;
        const auto* v = field(key);
        if (v == nullptr) return out;
        if (!v->is_object()) fail(key, "expected an object of strings");
        for (const auto& kv : v->get_object()) {
            const std::string name(kv.key());
            const auto where = std::string(key) + "." + name;
            const bool valid_name =
                environment ? !name.empty() && name.find_first_of(std::string_view("=\0", 2)) == std::string::npos
                            : !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
                                  return header_name_char(static_cast<unsigned char>(c));
                              });
            if (!valid_name)
                fail(where,
                     environment ? "not a variable name" : "not an HTTP header name (RFC 9110 token characters)");
            std::string value;
            if (kv.value().is_number())
                value = boost::json::serialize(kv.value());
            else if (kv.value().is_string())
                value = substituted(where, kv.value().get_string());
            else
                fail(where, "expected a string");
            if (environment)
                check_no_nul(where, value);
            else if (value.find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos)
                fail(where, "a header value may not hold CR, LF or NUL");
            out.emplace_back(name, std::move(value));
        }
        return out;
    }

    // "oauth": mcp-cpp's own field, so an unknown member is refused rather than ignored.
    std::optional<ServerOAuth> oauth() const {
        const auto* v = field("oauth");
        if (v == nullptr) return std::nullopt;
        if (!v->is_object()) fail("oauth", "expected an object");
        ServerOAuth out;
        for (const auto& kv : v->get_object()) {
            const std::string name(kv.key());
            const auto where = "oauth." + name;
            const auto string = [&] {
                if (!kv.value().is_string()) fail(where, "expected a string");
                auto value = substituted(where, kv.value().get_string());
                check_no_nul(where, value);
                return value;
            };
            if (name == "grant") {
                const auto grant = string();
                if (grant != "client_credentials" && grant != "authorization_code")
                    fail(where, "unknown grant \"" + grant + "\" (expected client_credentials or authorization_code)");
                out.client_credentials = grant == "client_credentials";
            } else if (name == "clientId") {
                out.client_id = string();
            } else if (name == "clientSecret") {
                out.client_secret = string();
            } else if (name == "tokenFile") {
                out.token_file = path(string());
            } else if (name == "scopes") {
                if (!kv.value().is_array()) fail(where, "expected an array of strings");
                for (const auto& scope : kv.value().get_array()) {
                    if (!scope.is_string() || scope.get_string().empty() ||
                        scope.get_string().find_first_of(" \"\\") != std::string::npos ||
                        has_control(scope.get_string()))
                        fail(where, "expected scope tokens (RFC 6749 section 3.3: no spaces, quotes or backslashes)");
                    out.scopes.emplace_back(scope.get_string());
                }
            } else {
                fail(where, "unknown field (expected grant, clientId, clientSecret, scopes, tokenFile)");
            }
        }
        if (out.client_credentials && out.client_id.empty())
            fail("oauth.clientId", "the client_credentials grant needs the client's id");
        return out;
    }

    // "limits": mcp-cpp's own field, so an unknown member is refused rather than ignored.
    StdioLimits limits() const {
        const auto* v = field("limits");
        if (v == nullptr) return {};
        if (!v->is_object()) fail("limits", "expected an object");
        StdioLimits out;
        for (const auto& kv : v->get_object()) {
            const std::string name(kv.key());
            const auto where = "limits." + name;
            const auto whole = [&](std::uint64_t max) {
                const auto& value = kv.value();
                const bool whole_number = value.is_int64() || value.is_uint64();
                const auto number = value.is_uint64() ? value.get_uint64()
                                    : value.is_int64() && value.get_int64() > 0
                                        ? static_cast<std::uint64_t>(value.get_int64())
                                        : 0;
                if (!whole_number || number == 0 || number > max)
                    fail(where, "expected a whole number from 1 to " + std::to_string(max) + ", not " +
                                    boost::json::serialize(value).substr(0, 40));
                return number;
            };
            if (name == "memoryMiB")
                out.memory_mib = whole(StdioLimits::max_memory_mib);
            else if (name == "cpuSeconds")
                out.cpu_seconds = whole(StdioLimits::max_cpu_seconds);
            else if (name == "openFiles")
                out.open_files = whole(StdioLimits::max_open_files);
            else if (name == "processes")
                out.processes = whole(StdioLimits::max_processes);
            else
                fail(where, "unknown field (expected memoryMiB, cpuSeconds, openFiles, processes)");
        }
        return out;
    }

    ServerTransportKind kind() const {
        const auto type = text("type");
        const bool command = field("command") != nullptr;
        const bool url = field("url") != nullptr;
        if (!type) {
            if (command && url) fail({}, "has both a command and a url; give it a type, or keep one of them");
            if (!command && !url) fail({}, "needs a command (a server the host starts) or a url (a remote one)");
            return url ? ServerTransportKind::http : ServerTransportKind::stdio;
        }
        if (*type == "stdio") return ServerTransportKind::stdio;
        if (*type == "http" || *type == "streamable-http") return ServerTransportKind::http;
        if (*type == "sse") return ServerTransportKind::sse;
        fail("type", "unknown type \"" + *type + "\" (expected stdio, http or sse)");
    }

    std::string path(const std::string& value) const {
        if (value.empty() || options_.base_directory.empty() || std::filesystem::path(value).is_absolute())
            return value;
        return (options_.base_directory / value).lexically_normal().string();
    }

    std::vector<std::pair<std::string, std::string>> env_file() const {
        const auto name = text("envFile");
        if (!name) return {};
        const auto file = path(*name);
        try {
            return detail::parse_dotenv(read_bounded(file, options_.max_bytes));
        } catch (const std::invalid_argument& e) {
            fail("envFile", file + ": " + e.what());
        }
    }

    void check_url(const std::string& url) const {
        const auto scheme_end = url.find("://");
        const auto scheme = url.substr(0, scheme_end == std::string::npos ? 0 : scheme_end);
        if (url.empty()) fail("url", "an http or sse server needs a url");
        if (scheme != "http" && scheme != "https") fail("url", "\"" + url + "\" is no http:// or https:// URL");
        const auto host = url.substr(scheme_end + 3, url.find_first_of("/?#", scheme_end + 3) - scheme_end - 3);
        if (host.empty() || host.front() == ':' || host.front() == '@') fail("url", "\"" + url + "\" names no host");
        if (has_control(url) || url.find(' ') != std::string::npos)
            fail("url", "a URL may not hold spaces or control characters");
    }

    void check_no_nul(const std::string& where, const std::string& value) const {
        if (value.find('\0') != std::string::npos) fail(where, "may not hold a NUL character");
    }

    const std::string& server_;
    const boost::json::object& entry_;
    const ConfigOptions& options_;
    const detail::VariableContext& variables_;
};

}  // namespace

std::string_view to_string(ServerTransportKind kind) {
    switch (kind) {
        case ServerTransportKind::stdio: return "stdio";
        case ServerTransportKind::http: return "http";
        case ServerTransportKind::sse: return "sse";
    }
    return "unknown";
}

ConfigError::ConfigError(std::string server, std::string field, std::string problem, std::string file)
    : std::runtime_error(describe(server, field, problem, file)),
      server_(std::move(server)),
      field_(std::move(field)),
      problem_(std::move(problem)),
      file_(std::move(file)) {}

std::vector<ServerConfig> parse_server_config(std::string_view text, const ConfigOptions& options) {
    if (text.size() > options.max_bytes)
        throw ConfigError({}, {}, "larger than " + std::to_string(options.max_bytes) + " bytes");
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    const auto document = parse_json(text);
    if (!document.is_object()) throw ConfigError({}, {}, "expected a JSON object with mcpServers or servers");
    const auto& root = document.get_object();
    const auto* claude = root.if_contains("mcpServers");
    const auto* vscode = root.if_contains("servers");
    if (claude != nullptr && vscode != nullptr)
        throw ConfigError({}, {}, "holds both mcpServers and servers; a file is one host's or the other's");
    const auto* servers = claude != nullptr ? claude : vscode;
    const char* key = claude != nullptr ? "mcpServers" : "servers";
    if (servers == nullptr)
        throw ConfigError({}, {}, "has neither mcpServers (Claude Desktop, Cursor) nor servers (VS Code)");
    if (!servers->is_object()) throw ConfigError({}, key, "expected an object of servers by name");
    if (servers->get_object().size() > options.max_servers)
        throw ConfigError({}, key, "more than " + std::to_string(options.max_servers) + " servers");

    detail::VariableContext variables{options.workspace_folder, options.environment};
    if (!variables.environment) variables.environment = process_environment;
    std::vector<ServerConfig> out;
    for (const auto& kv : servers->get_object()) {
        const std::string name(kv.key());
        if (name.empty() || name.size() > kMaxNameBytes || has_control(name))
            throw ConfigError(name, {}, "a server's name must be 1 to 128 characters, none of them control characters");
        if (!kv.value().is_object()) throw ConfigError(name, {}, "expected an object");
        out.push_back(EntryReader(name, kv.value().get_object(), options, variables).read());
    }
    return out;
}

std::vector<ServerConfig> read_server_config(const std::filesystem::path& file, ConfigOptions options) {
    if (options.base_directory.empty()) options.base_directory = std::filesystem::absolute(file).parent_path();
    try {
        std::string text;
        try {
            text = read_bounded(file, options.max_bytes);
        } catch (const std::invalid_argument& e) {
            throw ConfigError({}, {}, e.what());
        }
        return parse_server_config(text, options);
    } catch (const ConfigError& e) {
        throw ConfigError(e.server(), e.field(), e.problem(), file.string());
    }
}

}  // namespace mcp
