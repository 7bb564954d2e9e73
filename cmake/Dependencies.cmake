# Every dependency comes from a Debian bookworm package (scripts/install-deps.sh installs them).
# Boost 1.81 or a later 1.x: Debian's default libboost-dev is 1.74 and lacks JSON and URL. (Boost's
# own version file ignores the range's upper end; `<2` records the intent for one that reads it.)
find_package(Boost 1.81...<2 REQUIRED CONFIG COMPONENTS json url)
find_package(OpenSSL 3 REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(CLI11 REQUIRED)
find_package(Threads REQUIRED)
# libyaml reads SKILL.md frontmatter (the Skills extension); Debian ships it with a pkg-config file only.
find_package(PkgConfig REQUIRED)
pkg_check_modules(YAML REQUIRED IMPORTED_TARGET yaml-0.1)
