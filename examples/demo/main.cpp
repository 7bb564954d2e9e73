// mcp-cpp-demo: a small notes assistant showing every kind of handler mcp-cpp serves
// (notes_app.cpp), over stdio or Streamable HTTP as its options say.
#include "notes_app.hpp"

#include <mcp/mcp.hpp>

int main(int argc, char** argv) {
    mcp::Server server{demo::notes_app_info(), {.instructions = demo::kNotesAppInstructions}};
    demo::add_notes_app(server);
    return mcp::run(server, argc, argv);
}
