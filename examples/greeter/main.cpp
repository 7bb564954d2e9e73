#include <mcp/mcp.hpp>
struct Greet {
    std::string name;
    std::optional<int> times;  // optional: not required in the schema
};
BOOST_DESCRIBE_STRUCT(Greet, (), (name, times))
inline void mcp_schema(mcp::json::SchemaHints<Greet>& h) {
    h.field(&Greet::name).description("Who to greet").min_length(1);
    h.field(&Greet::times).description("How many times").minimum(1).maximum(5);
}

int main(int argc, char** argv) {
    mcp::Server server{{.name = "greeter", .version = "1.0.0"}};
    server.tool("greet", "Greets someone", [](const Greet& in) {
        std::string out;
        for (int i = 0; i < in.times.value_or(1); ++i) out += "Hello, " + in.name + "! ";
        return out;
    });
    return mcp::run(server, argc, argv);  // --help lists every option
}
