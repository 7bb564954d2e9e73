#pragma once
// The MCP App of word_stats: an HTML view of its structured result (words, characters, lines and
// a bar per frequent word), which a host renders in a sandboxed iframe and feeds over postMessage.

namespace demo {

extern const char* const kWordStatsApp;

}  // namespace demo
