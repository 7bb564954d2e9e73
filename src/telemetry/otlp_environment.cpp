#include "telemetry/otlp_environment.hpp"

#include "net/url.hpp"
#include "util/percent_encoding.hpp"

#include <charconv>
#include <cstdlib>
#include <stdexcept>

namespace mcp::telemetry {

namespace {

std::string trimmed(std::string_view s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    return std::string(s.substr(first, s.find_last_not_of(" \t") - first + 1));
}

// The first of the variables that is set.
std::optional<std::pair<std::string_view, std::string>> first_of(const Environment& environment,
                                                                 std::initializer_list<std::string_view> names) {
    for (auto name : names) {
        if (auto value = environment(name)) return std::pair{name, std::move(*value)};
    }
    return std::nullopt;
}

// Runs a parser on a variable's value; its complaint is prefixed with the variable's name.
template <class Parse>
auto from_variable(std::string_view name, const std::string& value, Parse parse) {
    try {
        return parse(value);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string(name) + ": " + e.what());
    }
}

// OTLP/HTTP's signal path, appended to a base URL (OTEL_EXPORTER_OTLP_ENDPOINT, or a flag's URL
// with no path).
std::string with_traces_path(const std::string& base) {
    return base + (base.ends_with('/') ? "v1/traces" : "/v1/traces");
}

double parse_ratio(const std::string& text) {
    double ratio = -1;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ratio);
    if (ec != std::errc() || end != text.data() + text.size() || !(ratio >= 0.0 && ratio <= 1.0)) {
        throw std::invalid_argument("expected a ratio from 0 to 1, got '" + text + "'");
    }
    return ratio;
}

void apply_sampler(TracingOptions& options, const std::string& sampler, std::optional<double> argument) {
    const double ratio = argument.value_or(1.0);
    if (sampler == "always_on") {
        options = {.parent_based = false, .sampling_ratio = 1.0};
    } else if (sampler == "always_off") {
        options = {.parent_based = false, .sampling_ratio = 0.0};
    } else if (sampler == "traceidratio") {
        options = {.parent_based = false, .sampling_ratio = ratio};
    } else if (sampler == "parentbased_always_on") {
        options = {.parent_based = true, .sampling_ratio = 1.0};
    } else if (sampler == "parentbased_always_off") {
        options = {.parent_based = true, .sampling_ratio = 0.0};
    } else if (sampler == "parentbased_traceidratio") {
        options = {.parent_based = true, .sampling_ratio = ratio};
    } else {
        throw std::invalid_argument(
            "expected always_on, always_off, traceidratio, parentbased_always_on, "
            "parentbased_always_off or parentbased_traceidratio, got '" +
            sampler + "'");
    }
}

}  // namespace

Environment process_environment() {
    return [](std::string_view name) -> std::optional<std::string> {
        const char* value = std::getenv(std::string(name).c_str());
        if (value == nullptr || *value == '\0') return std::nullopt;
        return std::string(value);
    };
}

std::vector<std::pair<std::string, std::string>> parse_key_values(std::string_view text) {
    std::vector<std::pair<std::string, std::string>> pairs;
    while (!text.empty()) {
        const auto comma = text.find(',');
        const auto item = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        if (trimmed(item).empty()) continue;
        const auto equals = item.find('=');
        if (equals == std::string_view::npos)
            throw std::invalid_argument("expected key=value, got '" + std::string(item) + "'");
        auto key = trimmed(item.substr(0, equals));
        auto value = detail::percent_decoded(trimmed(item.substr(equals + 1)));
        if (key.empty() || !value) throw std::invalid_argument("expected key=value, got '" + std::string(item) + "'");
        for (char c : *value) {
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
                throw std::invalid_argument("a control character in the value of '" + key + "'");
        }
        pairs.emplace_back(std::move(key), std::move(*value));
    }
    return pairs;
}

OtlpProtocol parse_protocol(std::string_view text) {
    if (text == "http/protobuf") return OtlpProtocol::http_protobuf;
    if (text == "http/json") return OtlpProtocol::http_json;
    throw std::invalid_argument("expected http/protobuf or http/json (grpc is not supported), got '" +
                                std::string(text) + "'");
}

void check_endpoint(std::string_view url) {
    if (!net::parse_url(url)) {
        throw std::invalid_argument("expected an http:// or https:// URL, got '" + std::string(url) + "'");
    }
}

TracingOptions resolve_tracing(const TracingFlags& flags, const Environment& environment) {
    TracingOptions options;
    if (flags.stream_span_events) options.stream_span_events = *flags.stream_span_events;
    // The sampler first: apply_sampler resets the options it is given.
    if (flags.sampling_ratio) {
        options.parent_based = true;
        options.sampling_ratio = *flags.sampling_ratio;
    } else if (auto sampler = environment("OTEL_TRACES_SAMPLER")) {
        std::optional<double> argument;
        if (auto arg = environment("OTEL_TRACES_SAMPLER_ARG"))
            argument = from_variable("OTEL_TRACES_SAMPLER_ARG", *arg, parse_ratio);
        TracingOptions sampling;
        from_variable("OTEL_TRACES_SAMPLER", *sampler,
                      [&](const std::string& s) { apply_sampler(sampling, s, argument); });
        options.parent_based = sampling.parent_based;
        options.sampling_ratio = sampling.sampling_ratio;
    }

    if (!flags.endpoint.empty()) {
        check_endpoint(flags.endpoint);
        const auto target = net::parse_url(flags.endpoint)->target;
        options.endpoint = target == "/" ? with_traces_path(flags.endpoint) : flags.endpoint;
    } else if (auto traces = environment("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")) {
        from_variable("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", *traces, check_endpoint);
        options.endpoint = *traces;
    } else if (auto base = environment("OTEL_EXPORTER_OTLP_ENDPOINT")) {
        from_variable("OTEL_EXPORTER_OTLP_ENDPOINT", *base, check_endpoint);
        options.endpoint = with_traces_path(*base);
    }

    if (!flags.protocol.empty()) {
        options.protocol = parse_protocol(flags.protocol);
    } else if (auto p = first_of(environment, {"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"})) {
        options.protocol = from_variable(p->first, p->second, parse_protocol);
    }
    if (!flags.headers.empty()) {
        options.headers = parse_key_values(flags.headers);
    } else if (auto h = first_of(environment, {"OTEL_EXPORTER_OTLP_TRACES_HEADERS", "OTEL_EXPORTER_OTLP_HEADERS"})) {
        options.headers = from_variable(h->first, h->second, parse_key_values);
    }
    if (!flags.resource_attributes.empty()) {
        options.resource_attributes = parse_key_values(flags.resource_attributes);
    } else if (auto r = environment("OTEL_RESOURCE_ATTRIBUTES")) {
        options.resource_attributes = from_variable("OTEL_RESOURCE_ATTRIBUTES", *r, parse_key_values);
    }
    options.service_name =
        !flags.service_name.empty() ? flags.service_name : environment("OTEL_SERVICE_NAME").value_or(std::string());

    const auto file = [&](const std::string& flag, std::initializer_list<std::string_view> names) {
        if (!flag.empty()) return flag;
        auto found = first_of(environment, names);
        return found ? found->second : std::string();
    };
    options.ca_file = file(flags.ca_file, {"OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE", "OTEL_EXPORTER_OTLP_CERTIFICATE"});
    options.client_cert_file = file(flags.client_cert_file, {"OTEL_EXPORTER_OTLP_TRACES_CLIENT_CERTIFICATE",
                                                             "OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE"});
    options.client_key_file =
        file(flags.client_key_file, {"OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY", "OTEL_EXPORTER_OTLP_CLIENT_KEY"});
    return options;
}

}  // namespace mcp::telemetry
