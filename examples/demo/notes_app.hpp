#pragma once
// The demo's notes assistant, registered on any Server: main.cpp serves it with mcp::run, and the
// fuzz targets (tests/fuzz) serve it without a transport or through an in-process connection.
#include <mcp/server/server.hpp>

namespace demo {

// What the demo calls itself in initialize and server/discover.
mcp::Implementation notes_app_info();
// What it tells clients about itself (ServerOptions::instructions).
inline constexpr const char* kNotesAppInstructions = "Notes live at demo://notes/{slug}. Use add_note to write one.";

// Registers the tools, resources, templates, prompts and completions of the notes assistant.
void add_notes_app(mcp::Server& server);

}  // namespace demo
