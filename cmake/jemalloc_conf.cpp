// Compiled into a program linked with jemalloc (MCP_ALLOCATOR=jemalloc, cmake/Allocator.cmake):
// jemalloc reads this symbol at its start (before MALLOC_CONF, which still overrides it). A thread
// of its own purges freed pages after a second, so that an idle server gives a burst's memory back
// (docs/adr/0031-allocator.md); without it, pages decay only when malloc is used again.
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0";
}
