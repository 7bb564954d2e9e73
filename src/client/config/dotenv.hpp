#pragma once
// An envFile (VS Code's "envFile"): the dotenv format as VS Code reads it.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail {

// KEY=VALUE lines; blank lines and lines starting with '#' are skipped, and an "export " before the
// key is allowed. An unquoted value is trimmed and ends at " #"; a single-quoted one is taken as
// written, a double-quoted one reads \n, \r, \t, \" and \\; quoted values may span lines. Nothing
// is expanded. Throws std::invalid_argument naming the line.
std::vector<std::pair<std::string, std::string>> parse_dotenv(std::string_view text);

}  // namespace mcp::detail
