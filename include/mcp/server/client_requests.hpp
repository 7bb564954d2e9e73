#pragma once
// What a handler can ask of the client while it runs: a form or a URL for the user
// (elicitation), a completion from the client's model (sampling), the client's roots. One API for
// both protocol eras: a 2025-era client gets a server-to-client request and the handler waits for
// the answer; a 2026-era client gets an InputRequiredResult and retries, and the handler runs again
// from the top with the answers (docs/adr/0010-client-requests.md).
//
//   mcp::FormSchema form;
//   form.text("name").title("Your name");
//   form.choice("size", {"S", "M", "L"}).default_value("M");
//   auto answer = ctx.elicit("Which size?", form);
//   if (answer.accepted()) order(answer.content.at("size").as_string());
#include <mcp/json/bind.hpp>
#include <mcp/protocol/client_features.hpp>  // ElicitResult, SamplingRequest, SamplingResult, Root
#include <mcp/protocol/content.hpp>
#include <mcp/protocol/types.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <list>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace mcp {

// ---- Elicitation: a form (the restricted JSON Schema the spec allows: flat, primitive fields).

class FormField {
public:
    FormField(std::string name, boost::json::object schema) : name_(std::move(name)), schema_(std::move(schema)) {}
    FormField& title(const std::string& text);
    FormField& description(const std::string& text);
    FormField& default_value(boost::json::value v);
    // Text fields.
    FormField& min_length(std::size_t n);
    FormField& max_length(std::size_t n);
    FormField& format(const std::string& name);  // "email", "uri", "date", "date-time"
    // Numbers.
    FormField& minimum(double v);
    FormField& maximum(double v);
    // Multi-select.
    FormField& min_items(std::size_t n);
    FormField& max_items(std::size_t n);
    // Fields are required unless marked optional.
    FormField& optional();

    const std::string& name() const { return name_; }
    const boost::json::object& schema() const { return schema_; }
    bool required() const { return !optional_; }

private:
    std::string name_;
    boost::json::object schema_;
    bool optional_ = false;
};

// A titled option: the value sent back, and what the user sees.
struct Option {
    std::string value;
    std::string title;
};

class FormSchema {
public:
    FormField& text(std::string name);
    FormField& integer(std::string name);
    FormField& number(std::string name);
    FormField& boolean(std::string name);
    // Single choice: plain values (enum), or titled options (oneOf of const/title).
    FormField& choice(std::string name, const std::vector<std::string>& values);
    FormField& choice(std::string name, const std::vector<Option>& options);
    // Single choice in the form older clients understand (enum with enumNames).
    FormField& legacy_choice(std::string name, const std::vector<Option>& options);
    // Several choices: plain values, or titled options (anyOf of const/title).
    FormField& choices(std::string name, const std::vector<std::string>& values);
    FormField& choices(std::string name, const std::vector<Option>& options);

    // The requestedSchema sent to the client.
    boost::json::object to_json() const;
    // A form from a requestedSchema another server sent (a mount passing it on): each property
    // a field with its schema as it is, optional unless "required" names it. Throws
    // std::invalid_argument when it is not an object schema of object properties and string
    // required names.
    static FormSchema from_json(const boost::json::object& requested_schema);

    const std::list<FormField>& fields() const { return fields_; }

private:
    FormField& add(std::string name, boost::json::object schema);
    std::list<FormField> fields_;  // a list: FormField references stay valid while building
};

// A form elicitation. `key` names the request in a 2026 InputRequiredResult (the client answers
// under it); empty means "elicitation-<n>" by call order.
struct ElicitRequest {
    std::string message;
    FormSchema schema;
    std::string key;
};

// A URL elicitation (2025-11-25 clients that declare elicitation.url): the user completes a flow
// in the browser, out of band. The result says whether they agreed to open it.
struct UrlElicitRequest {
    std::string message;
    std::string url;
    std::string elicitation_id;  // generated when empty
    std::string key;
};

// ---- Roots.

struct RootsRequest {
    std::string key;
};

// ---- Several requests in one round (Context::ask).

using InputRequest = std::variant<ElicitRequest, UrlElicitRequest, SamplingRequest, RootsRequest>;
using InputAnswer = std::variant<ElicitResult, SamplingResult, std::vector<Root>>;

// ---- What can go wrong, as exceptions a handler may catch.

class ClientRequestError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The client did not declare the capability (e.g. "sampling"). On the 2026 wire an uncaught one
// becomes -32021 with data.requiredCapabilities; on the 2025 wire an isError result.
class CapabilityMissing : public ClientRequestError {
public:
    explicit CapabilityMissing(std::string capability);
    const std::string& capability() const noexcept { return capability_; }

private:
    std::string capability_;
};

// No answer in time (2025 wire). The client was sent notifications/cancelled for the request.
class InputTimeout : public ClientRequestError {
public:
    using ClientRequestError::ClientRequestError;
};

// The client is gone (stdio closed, session deleted, server shutting down).
class ClientGone : public ClientRequestError {
public:
    using ClientRequestError::ClientRequestError;
};

// The client answered with a JSON-RPC error.
class ClientError : public ClientRequestError {
public:
    ClientError(int code, const std::string& message) : ClientRequestError(message), code_(code) {}
    int code() const noexcept { return code_; }

private:
    int code_;
};

// Thrown by a tool that cannot go on until the user completes URL elicitations (2025-11-25):
// a client that declared elicitation.url gets -32042 listing them; any other client an isError
// result with the message.
class UrlElicitationRequired : public std::runtime_error {
public:
    UrlElicitationRequired(const std::string& message, std::vector<UrlElicitRequest> elicitations)
        : std::runtime_error(message), elicitations_(std::move(elicitations)) {}
    const std::vector<UrlElicitRequest>& elicitations() const noexcept { return elicitations_; }

private:
    std::vector<UrlElicitRequest> elicitations_;
};

}  // namespace mcp
