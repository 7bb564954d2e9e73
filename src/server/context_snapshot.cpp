#include <mcp/server/context_snapshot.hpp>

#include "util/log.hpp"

#include <exception>
#include <mutex>
#include <typeinfo>

namespace mcp {

namespace {

using Accessors = std::vector<ContextRegistry::Accessor>;

// Stands in for the value of an accessor whose capture threw, so that restore skips it while a
// captured empty std::any is still restored as is.
struct CaptureFailed {};

// Runs one accessor call; a throwing accessor is logged and must not affect the others.
template <class F>
void guarded(const ContextRegistry::Accessor& accessor, const char* what, F&& call) {
    try {
        call();
    } catch (const std::exception& e) {
        detail::log().error("context accessor '{}': {} threw: {}", accessor.name, what, e.what());
    } catch (...) {
        detail::log().error("context accessor '{}': {} threw a non-standard exception", accessor.name, what);
    }
}

}  // namespace

// Copy-on-write: add() publishes a new immutable vector, capture() only copies the pointer.
struct ContextRegistry::Impl {
    mutable std::mutex mu;
    std::shared_ptr<const Accessors> accessors = std::make_shared<const Accessors>();

    std::shared_ptr<const Accessors> current() const {
        std::lock_guard lock(mu);
        return accessors;
    }
};

ContextRegistry::ContextRegistry() : impl_(std::make_unique<Impl>()) {}

ContextRegistry::~ContextRegistry() = default;

ContextRegistry& ContextRegistry::global() {
    static ContextRegistry registry;
    return registry;
}

void ContextRegistry::add(Accessor accessor) {
    std::lock_guard lock(impl_->mu);
    auto next = std::make_shared<Accessors>(*impl_->accessors);
    next->push_back(std::move(accessor));
    impl_->accessors = std::move(next);
}

ContextSnapshot ContextRegistry::capture() const {
    ContextSnapshot snapshot;
    snapshot.accessors_ = impl_->current();
    snapshot.values_.reserve(snapshot.accessors_->size());
    for (const Accessor& accessor : *snapshot.accessors_) {
        std::any value = CaptureFailed{};
        guarded(accessor, "capture", [&] { value = accessor.capture(); });
        snapshot.values_.push_back(std::move(value));
    }
    return snapshot;
}

void ContextRegistry::clear_current_thread() const {
    for (const Accessor& accessor : *impl_->current()) guarded(accessor, "clear", [&] { accessor.clear(); });
}

std::size_t ContextRegistry::size() const { return impl_->current()->size(); }

ContextSnapshot::Scope ContextSnapshot::restore() const {
    if (accessors_) {
        for (std::size_t i = 0; i < accessors_->size(); ++i) {
            const std::any& value = values_[i];
            if (value.type() == typeid(CaptureFailed)) continue;
            const ContextRegistry::Accessor& accessor = (*accessors_)[i];
            guarded(accessor, "restore", [&] { accessor.restore(value); });
        }
    }
    return Scope(accessors_);
}

ContextSnapshot::Scope::~Scope() {
    if (!accessors_) return;
    for (const ContextRegistry::Accessor& accessor : *accessors_) {
        guarded(accessor, "clear", [&] { accessor.clear(); });
    }
}

}  // namespace mcp
