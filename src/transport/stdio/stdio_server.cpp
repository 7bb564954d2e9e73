#include <mcp/transport/stdio.hpp>

#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/server/server.hpp>

#include "json/text_writer.hpp"
#include "transport/stdio/line_writer.hpp"
#include "util/line_reader.hpp"
#include "util/log.hpp"

#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <cstring>

namespace mcp {

namespace {

// Every message of the connection goes to the one writer, serialized on the sending thread.
class StdoutSink final : public CallSink {
public:
    explicit StdoutSink(std::shared_ptr<detail::LineWriter> writer) : writer_(std::move(writer)) {}
    bool send(boost::json::value message) override { return writer_->write(detail::json_text(message)); }
    void complete(std::optional<boost::json::value> response) override {
        if (response) writer_->write(detail::json_text(*response));
    }
    bool takes_text() const override { return true; }
    void complete_text(std::string response) override { writer_->write(std::move(response)); }

private:
    std::shared_ptr<detail::LineWriter> writer_;
};

}  // namespace

int serve_stdio(Server& server, const StdioOptions& options) {
    std::signal(SIGPIPE, SIG_IGN);
    auto writer = std::make_shared<detail::LineWriter>(options.output_fd);
    auto sink = std::make_shared<StdoutSink>(writer);
    auto session = server.open_session(sink);
    const Inbound inbound{.session = session, .principal = options.principal, .network = {.transport = "pipe"}};
    const std::size_t max_bytes = server.options().limits.max_message_bytes;

    detail::LineReader reader(max_bytes,
                              {.line = [&](std::string_view line) { server.handle(line, inbound, sink); },
                               .oversized =
                                   [&](std::size_t bytes) {
                                       detail::log().warn("dropped a {} byte line (limit {})", bytes, max_bytes);
                                       sink->complete(jsonrpc::make_error(
                                           nullptr, error_code::invalid_request,
                                           "Message too large: exceeds " + std::to_string(max_bytes) + " bytes"));
                                   }});

    std::string buffer(64 * 1024, '\0');
    while (true) {
        const ssize_t n = ::read(options.input_fd, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) detail::log().warn("stdin read failed: {}", std::strerror(errno));
        if (n <= 0) break;
        {
            const detail::LineWriter::Held together(*writer);  // the replies answered inline to this read
            reader.feed(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
        }
        writer->wait_for_room();  // a client that does not read stdout is not read either
    }
    reader.finish();

    // The client is gone: nothing more can be asked of it, but calls in flight finish and answer.
    session->close();
    session->wait_idle();
    writer->flush();
    return 0;
}

}  // namespace mcp
