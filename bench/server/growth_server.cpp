// mcp-cpp-bench-growth: the demo's echo tool among N registered tools of the same shape, for the
// growth suite of bench/run.sh (tools/call and a full paginated tools/list against the registry's
// size), its interceptors suite (what interceptors cost, and what none costs), and what validating
// structured output costs.
//   mcp-cpp-bench-growth TOOLS [the options of mcp::run: --http HOST:PORT, --page-size N, ...]
#include <mcp/mcp.hpp>

#include <boost/json/parse.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

struct EchoInput {
    std::string text;
};
BOOST_DESCRIBE_STRUCT(EchoInput, (), (text))
inline void mcp_schema(mcp::json::SchemaHints<EchoInput>& h) {
    h.field(&EchoInput::text).description("Text to send back");
}

int main(int argc, char** argv) {
    const long tools = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 0;
    if (tools < 1 || tools > 100000) {
        std::fprintf(stderr, "usage: %s TOOLS(1-100000) [server options, listed by: %s 1 --help]\n", argv[0], argv[0]);
        return 2;
    }
    mcp::Server server{{.name = "mcp-cpp-bench-growth", .version = "0.1.0"}};
    // As the demo's echo: it never blocks, so it runs on the transport's thread. With
    // MCP_BENCH_POOLED=1 the tools run on the handler pool instead: what declaring it saves.
    const char* pooled = std::getenv("MCP_BENCH_POOLED");
    const bool runs_inline = pooled == nullptr || std::string_view(pooled) != "1";
    // With MCP_BENCH_STRUCTURED=1 the tools also return structuredContent ({text, bytes}) and declare
    // its outputSchema, which every call is validated against unless --output-validation off.
    const char* structured = std::getenv("MCP_BENCH_STRUCTURED");
    const bool with_output = structured != nullptr && std::string_view(structured) == "1";
    const auto output_schema =
        boost::json::parse(R"({"type":"object","properties":{"text":{"type":"string"},)"
                           R"("bytes":{"type":"integer","minimum":0}},"required":["text","bytes"]})")
            .as_object();
    const auto add = [&](std::string name) {
        if (!with_output) {
            server.tool({.name = std::move(name),
                         .description = "Returns its text argument unchanged",
                         .runs_inline = runs_inline},
                        [](const EchoInput& in) { return in.text; });
            return;
        }
        server.tool({.name = std::move(name),
                     .description = "Returns its text argument unchanged, and its size as structured output",
                     .output_schema = output_schema,
                     .runs_inline = runs_inline},
                    [](const EchoInput& in) {
                        return mcp::CallToolResult{
                            .content = {mcp::text(in.text)},
                            .structured_content = boost::json::object{{"text", in.text}, {"bytes", in.text.size()}}};
                    });
    };
    add("echo");
    // MCP_BENCH_INTERCEPTORS=N: N interceptors that only pass the call on, the least one can cost.
    const char* interceptors = std::getenv("MCP_BENCH_INTERCEPTORS");
    for (long i = interceptors != nullptr ? std::strtol(interceptors, nullptr, 10) : 0; i > 0; --i) {
        server.intercept([](const mcp::Invocation&, const mcp::Proceed& next) { return next(); });
    }
    char name[32];
    for (long i = 1; i < tools; ++i) {
        std::snprintf(name, sizeof name, "echo_%05ld", i);
        add(name);
    }
    // mcp::run parses the rest of the command line: drop the tool count from it.
    std::vector<char*> args{argv[0]};
    args.insert(args.end(), argv + 2, argv + argc);
    return mcp::run(server, static_cast<int>(args.size()), args.data());
}
