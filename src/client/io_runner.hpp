#pragma once
// The I/O context a client's transport and timers run on: the host's, or one of the client's own
// with one thread.
#include <memory>

namespace boost::asio {
class io_context;
}

namespace mcp::detail {

class IoRunner {
public:
    // `host`: the application's context, run by the application; null: a context of our own and
    // the one thread that runs it.
    explicit IoRunner(boost::asio::io_context* host);
    // stop().
    ~IoRunner();
    IoRunner(const IoRunner&) = delete;
    IoRunner& operator=(const IoRunner&) = delete;

    boost::asio::io_context& io();
    // Whether the calling thread is running the context (where a blocking call would deadlock).
    bool in_io_thread() const;
    // Our own context: stops it and joins its thread. The host's: nothing.
    void stop();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace mcp::detail
