#include "bridge/mount_errors.hpp"

namespace mcp::detail {

Error unreachable_mount(const std::string& prefix, const std::string& why) {
    return Error(error_code::internal_error, "mounted server \"" + prefix + "\" cannot be reached: " + why,
                 boost::json::object{{"mount", prefix}});
}

}  // namespace mcp::detail
