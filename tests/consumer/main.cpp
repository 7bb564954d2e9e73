#include <mcp/mcp.hpp>

struct Add {
    int a;
    int b;
};
BOOST_DESCRIBE_STRUCT(Add, (), (a, b))

int main(int argc, char** argv) {
    mcp::Server server{{.name = "consumer", .version = "1.0.0"}};
    server.tool("add", "Adds two integers", [](const Add& in) { return in.a + in.b; });
    return mcp::run(server, argc, argv);
}
