#pragma once
// What the client learned of each tool from its listings: the x-mcp-header params a call mirrors
// into Mcp-Param-* headers, the output schema its structuredContent is checked against, and
// whether it may run as a task. Thread-safe.
#include "protocol/param_headers.hpp"

#include <mcp/client/types.hpp>
#include <mcp/json/schema_validator.hpp>
#include <mcp/protocol/content.hpp>

#include <boost/json/object.hpp>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail {

class ToolRegistry {
public:
    // Remembers a listed tool. False for one whose x-mcp-header annotations are invalid: the
    // listing drops it (a call could not carry its headers).
    bool learn(const Tool& tool);
    // The tools changed: what was learned may be wrong now.
    void forget_all();

    // The Mcp-Param-* values of a call; none for a tool never listed.
    std::vector<std::pair<std::string, std::string>> param_headers(std::string_view tool,
                                                                   const boost::json::object& arguments) const;
    // Throws mcp::OutputSchemaMismatch when the result of a tool listed with an outputSchema has
    // no structuredContent, or one the schema refuses. Error results are not checked.
    void check_output(std::string_view tool, const CallToolResult& result) const;
    // Listed with execution.taskSupport "optional" or "required"; false for one never listed.
    bool runs_as_task(std::string_view tool) const;

private:
    struct Known {
        std::vector<HeaderParam> header_params;
        std::shared_ptr<const json::SchemaValidator> output;  // null: no schema, or one that did not compile
        bool runs_as_task = false;
    };
    mutable std::mutex mutex_;
    std::map<std::string, Known, std::less<>> tools_;
};

}  // namespace mcp::detail
