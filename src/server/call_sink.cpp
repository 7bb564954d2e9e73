#include <mcp/server/sink.hpp>

#include <boost/json/parse.hpp>

namespace mcp {

// By value: the sinks that take text keep it.
void CallSink::complete_text(std::string response) {  // NOLINT(performance-unnecessary-value-param)
    complete(boost::json::parse(response));
}

}  // namespace mcp
