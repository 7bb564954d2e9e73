#include "demo_server.hpp"

#include "notes_app.hpp"
#include "util/log.hpp"

namespace fuzzing {

std::unique_ptr<mcp::Server> make_demo_server() {
    static const bool quiet = mcp::detail::configure_logging("off", "text");
    (void)quiet;
    mcp::ServerOptions options;
    options.instructions = demo::kNotesAppInstructions;
    options.page_size = 2;
    options.keys = mcp::KeyRing::parse("fuzz:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");
    auto server = std::make_unique<mcp::Server>(demo::notes_app_info(), std::move(options));
    demo::add_notes_app(*server);
    return server;
}

}  // namespace fuzzing
