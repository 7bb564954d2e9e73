#include "store/round_trip_observer.hpp"

#include <exception>

namespace mcp::detail {

namespace {

thread_local StoreObserver* current_observer = nullptr;

}  // namespace

ObservingStore::ObservingStore(StoreObserver* observer) : previous_(current_observer) { current_observer = observer; }

ObservingStore::~ObservingStore() { current_observer = previous_; }

ReportRoundTrip::ReportRoundTrip(const std::vector<std::vector<std::string>>& commands)
    : observer_(current_observer), commands_(commands) {
    if (observer_ == nullptr) return;
    started_ = std::chrono::system_clock::now();
    exceptions_ = std::uncaught_exceptions();
}

ReportRoundTrip::~ReportRoundTrip() {
    if (observer_ == nullptr || commands_.empty() || commands_.front().empty()) return;
    observer_->round_trip(
        {commands_.front().front(), commands_.size(), started_, std::uncaught_exceptions() > exceptions_});
}

}  // namespace mcp::detail
