#pragma once
// What a server may ask of a client, as both roles see it: elicitation, sampling and roots
// (schema.ts, 2025-11-25 and 2026-07-28). A server asks with these (mcp/server/client_requests.hpp)
// and a client answers them (mcp/client/client.hpp).
#include <mcp/json/bind.hpp>
#include <mcp/protocol/content.hpp>
#include <mcp/protocol/types.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcp {

// ---- Elicitation.

enum class ElicitMode { form, url };

// An elicitation/create request as the client receives it.
struct Elicitation {
    ElicitMode mode = ElicitMode::form;
    std::string message;
    boost::json::object requested_schema;  // form mode: a flat object schema, verbatim
    std::string url;                       // url mode: the page the user is asked to open
    std::string elicitation_id;            // url mode
};

enum class ElicitAction { accept, decline, cancel };

struct ElicitResult {
    ElicitAction action = ElicitAction::cancel;
    boost::json::object content;  // the form's values, when accepted

    bool accepted() const { return action == ElicitAction::accept; }
    // The accepted values bound to a described struct (mcp::json::BindError when they do not fit).
    template <class T>
    T as() const {
        return json::from_json<T>(content);
    }
};

// ---- Sampling.

struct SamplingMessage {
    Role role = Role::user;
    Content content;
};

struct ModelPreferences {
    std::vector<std::string> hints;  // model name hints, most preferred first
    std::optional<double> cost_priority;
    std::optional<double> speed_priority;
    std::optional<double> intelligence_priority;
};

struct SamplingRequest {
    std::vector<SamplingMessage> messages;
    std::string system_prompt;
    std::optional<ModelPreferences> model_preferences;
    int max_tokens = 1024;
    std::optional<double> temperature;
    std::vector<std::string> stop_sequences;
    // Tools the client's model may call (2025-11-25 sampling with tools): Tool definitions.
    std::vector<boost::json::object> tools;
    // Names the request in a 2026 InputRequiredResult (the client answers under it). A server
    // may leave it empty: "sampling-<n>" by call order.
    std::string key;
    // As a client received it: the whole params, for what is not modelled here (content blocks
    // of tool use, includeContext, metadata). Not sent.
    boost::json::object raw;
};

struct SamplingResult {
    Role role = Role::assistant;
    std::vector<Content> content;  // one block, or several when the model used tools
    std::string model;
    std::string stop_reason;
    // The whole result as received, for fields not modelled here; a client answering may put such
    // fields (tool_use blocks) here, and the modelled members above overwrite it when set.
    boost::json::object raw;

    // The text blocks, concatenated.
    std::string text() const;
};

// ---- Roots.

struct Root {
    std::string uri;
    std::string name;
};

// ---- On the wire.

// sampling/createMessage params.
boost::json::object to_wire(const SamplingRequest& request);
boost::json::object to_wire(const ElicitResult& result);
boost::json::object to_wire(const SamplingResult& result);
// A roots/list result: {"roots": [...]}.
boost::json::object to_wire(const std::vector<Root>& roots);

// elicitation/create and sampling/createMessage params.
template <>
Elicitation from_wire<Elicitation>(const boost::json::value& wire);
template <>
SamplingRequest from_wire<SamplingRequest>(const boost::json::value& wire);
// The client's answers.
template <>
ElicitResult from_wire<ElicitResult>(const boost::json::value& wire);
template <>
SamplingResult from_wire<SamplingResult>(const boost::json::value& wire);
template <>
std::vector<Root> from_wire<std::vector<Root>>(const boost::json::value& wire);

}  // namespace mcp
