// RFC 6570 URI templates both ways: the first line is a template (an application's resource
// template), every other line a URI a client asks to read. Each URI is matched against the
// template, and the template expanded with what matched and with the URI itself for every variable.
#include <mcp/protocol/uri_template.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    const auto nl = input.find('\n');
    std::optional<mcp::UriTemplate> uri_template;
    try {
        uri_template.emplace(input.substr(0, nl));
    } catch (const std::invalid_argument&) {
        return 0;  // a malformed template is refused at registration
    }
    if (nl == std::string_view::npos) return 0;
    input.remove_prefix(nl + 1);
    while (true) {
        const auto end = input.find('\n');
        const std::string_view uri = input.substr(0, end);
        if (auto variables = uri_template->match(uri)) (void)uri_template->expand(*variables);
        mcp::UriVariables everything;
        for (const auto& name : uri_template->variables()) everything.emplace(name, std::string(uri));
        (void)uri_template->expand(everything);
        if (end == std::string_view::npos) return 0;
        input.remove_prefix(end + 1);
    }
}
