#include "telemetry/span.hpp"

#include <algorithm>
#include <chrono>

namespace mcp::telemetry {

bool SpanData::has_parent() const {
    return std::any_of(parent_span_id.begin(), parent_span_id.end(), [](std::uint8_t b) { return b != 0; });
}

void SpanData::set(AttributeKey key, AttributeValue value) {
    auto same = std::find_if(attributes.begin(), attributes.end(), [&](const Attribute& a) { return a.key == key; });
    if (same != attributes.end()) {
        same->value = std::move(value);
    } else if (attributes.size() < kMaxAttributes) {
        if (attributes.empty()) attributes.reserve(kTypicalAttributes);
        attributes.push_back({std::move(key), std::move(value)});
    } else {
        ++dropped_attributes;
    }
}

void SpanData::add_event(std::string event_name, Attributes event_attributes) {
    if (events.size() >= kMaxEvents) {
        ++dropped_events;
        return;
    }
    if (event_attributes.size() > kMaxAttributes) event_attributes.resize(kMaxAttributes);
    events.push_back({now_unix_nano(), std::move(event_name), std::move(event_attributes)});
}

void SpanData::add_link(Link link) {
    if (links.size() >= kMaxLinks) {
        ++dropped_links;
        return;
    }
    if (link.attributes.size() > kMaxAttributes) link.attributes.resize(kMaxAttributes);
    links.push_back(std::move(link));
}

std::uint64_t now_unix_nano() {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());
}

}  // namespace mcp::telemetry
