#include <mcp/protocol/errors.hpp>

#include <boost/json/object.hpp>

namespace mcp {

ResourceNotFound::ResourceNotFound(const std::string& uri)
    : Error(error_code::resource_not_found, "Resource not found: " + uri, boost::json::object{{"uri", uri}}),
      uri_(uri) {}

}  // namespace mcp
