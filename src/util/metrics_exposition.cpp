#include "util/metrics_exposition.hpp"

#include <fmt/format.h>

#include <cmath>
#include <iterator>

namespace mcp::detail::metrics {

namespace {

using Buffer = fmt::memory_buffer;

// A label value between double quotes: backslash, quote and newline escaped (both formats).
void append_label_value(Buffer& out, std::string_view value) {
    for (char c : value) {
        switch (c) {
            case '\\': out.append(std::string_view("\\\\")); break;
            case '"': out.append(std::string_view("\\\"")); break;
            case '\n': out.append(std::string_view("\\n")); break;
            default: out.push_back(c);
        }
    }
}

// Help text: backslash and newline escaped.
void append_help(Buffer& out, std::string_view text) {
    for (char c : text) {
        if (c == '\\')
            out.append(std::string_view("\\\\"));
        else if (c == '\n')
            out.append(std::string_view("\\n"));
        else
            out.push_back(c);
    }
}

// A float as both formats read it; whole numbers keep a ".0" (OpenMetrics' canonical le values).
void append_number(Buffer& out, double v) {
    if (std::isinf(v)) {
        out.append(std::string_view(v > 0 ? "+Inf" : "-Inf"));
    } else if (std::isnan(v)) {
        out.append(std::string_view("NaN"));
    } else if (v == std::floor(v) && std::fabs(v) < 1e15) {
        fmt::format_to(std::back_inserter(out), "{:.1f}", v);
    } else {
        fmt::format_to(std::back_inserter(out), "{}", v);
    }
}

void append_labels(Buffer& out, const Family& family, const Labels& values, std::string_view extra_name = {},
                   std::string_view extra_value = {}) {
    const auto& names = family.label_names();
    if (names.empty() && extra_name.empty()) return;
    out.push_back('{');
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out.push_back(',');
        out.append(names[i]);
        out.append(std::string_view("=\""));
        append_label_value(out, values[i]);
        out.push_back('"');
    }
    if (!extra_name.empty()) {
        if (!names.empty()) out.push_back(',');
        out.append(extra_name);
        out.append(std::string_view("=\""));
        out.append(extra_value);
        out.push_back('"');
    }
    out.push_back('}');
}

// The family's name in TYPE and HELP: OpenMetrics names a counter without its _total suffix.
std::string_view family_name(const Family& family, Format format) {
    std::string_view name = family.name();
    if (format == Format::openmetrics && family.type() == Type::counter && name.ends_with("_total"))
        name.remove_suffix(6);
    return name;
}

std::string_view type_name(Type type) {
    switch (type) {
        case Type::counter: return "counter";
        case Type::gauge: return "gauge";
        case Type::histogram: return "histogram";
    }
    return "untyped";
}

void append_histogram(Buffer& out, const Family& family, const Family::Sample& sample, Format format) {
    const auto snapshot = sample.histogram->snapshot();
    const auto& bounds = sample.histogram->bounds();
    const std::string bucket_name = family.name() + "_bucket";
    for (std::size_t i = 0; i <= bounds.size(); ++i) {
        Buffer le;
        append_number(le, i < bounds.size() ? bounds[i] : INFINITY);
        out.append(bucket_name);
        append_labels(out, family, sample.labels, "le", std::string_view(le.data(), le.size()));
        fmt::format_to(std::back_inserter(out), " {}", snapshot.cumulative[i]);
        const auto& exemplar = snapshot.exemplars[i];
        if (format == Format::openmetrics && !exemplar.trace_id.empty()) {
            out.append(std::string_view(" # {trace_id=\""));
            append_label_value(out, exemplar.trace_id);
            out.append(std::string_view("\"} "));
            append_number(out, exemplar.value);
            fmt::format_to(std::back_inserter(out), " {:.3f}", exemplar.timestamp);
        }
        out.push_back('\n');
    }
    out.append(family.name() + "_count");
    append_labels(out, family, sample.labels);
    fmt::format_to(std::back_inserter(out), " {}\n", snapshot.cumulative.back());
    out.append(family.name() + "_sum");
    append_labels(out, family, sample.labels);
    out.push_back(' ');
    append_number(out, snapshot.sum);
    out.push_back('\n');
}

}  // namespace

Format format_for(std::string_view accept) {
    return accept.find("application/openmetrics-text") != std::string_view::npos ? Format::openmetrics
                                                                                 : Format::prometheus_text;
}

std::string_view content_type(Format format) {
    return format == Format::openmetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                         : "text/plain; version=0.0.4; charset=utf-8";
}

std::string expose(const Registry& registry, Format format) {
    Buffer out;
    for (const Family* family : registry.families()) {
        const auto samples = family->collect();
        if (samples.empty()) continue;
        const auto name = family_name(*family, format);
        out.append(std::string_view("# HELP "));
        out.append(name);
        out.push_back(' ');
        append_help(out, family->help());
        out.append(std::string_view("\n# TYPE "));
        out.append(name);
        out.push_back(' ');
        out.append(type_name(family->type()));
        out.push_back('\n');
        for (const auto& sample : samples) {
            if (sample.histogram != nullptr) {
                append_histogram(out, *family, sample, format);
                continue;
            }
            out.append(family->name());
            append_labels(out, *family, sample.labels);
            out.push_back(' ');
            if (sample.counter != nullptr)
                fmt::format_to(std::back_inserter(out), "{}", sample.counter->value());
            else if (sample.gauge != nullptr)
                fmt::format_to(std::back_inserter(out), "{}", sample.gauge->value());
            else
                append_number(out, sample.callback_value);
            out.push_back('\n');
        }
    }
    if (format == Format::openmetrics) out.append(std::string_view("# EOF\n"));
    return fmt::to_string(out);
}

}  // namespace mcp::detail::metrics
