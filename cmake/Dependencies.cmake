# Every dependency comes from a Debian bookworm package (scripts/install-deps.sh installs them).
# Boost must be the 1.81 family: Debian's default libboost-dev is 1.74 and lacks JSON and URL.
find_package(Boost 1.81.0 EXACT REQUIRED CONFIG COMPONENTS json url)
find_package(OpenSSL 3 REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(CLI11 REQUIRED)
find_package(Threads REQUIRED)
