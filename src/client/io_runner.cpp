#include "client/io_runner.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <pthread.h>

#include <optional>
#include <thread>

namespace mcp::detail {

struct IoRunner::Impl {
    std::unique_ptr<boost::asio::io_context> own;
    boost::asio::io_context* io = nullptr;
    std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work;
    std::thread thread;
};

IoRunner::IoRunner(boost::asio::io_context* host) : impl_(std::make_unique<Impl>()) {
    if (host != nullptr) {
        impl_->io = host;
        return;
    }
    impl_->own = std::make_unique<boost::asio::io_context>(1);
    impl_->io = impl_->own.get();
    impl_->work.emplace(impl_->io->get_executor());
    impl_->thread = std::thread([io = impl_->io] {
        pthread_setname_np(pthread_self(), "mcp-client-io");
        io->run();
    });
}

IoRunner::~IoRunner() { stop(); }

boost::asio::io_context& IoRunner::io() { return *impl_->io; }

bool IoRunner::in_io_thread() const { return impl_->io->get_executor().running_in_this_thread(); }

void IoRunner::stop() {
    if (!impl_->thread.joinable()) return;
    impl_->work.reset();
    impl_->io->stop();
    impl_->thread.join();
}

}  // namespace mcp::detail
