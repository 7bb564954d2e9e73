#pragma once
// A standard allocator over a Boost.JSON storage that keeps the storage alive: an object made with
// it (std::allocate_shared) may outlive every other user of the storage, a message's arena say.
#include <boost/json/storage_ptr.hpp>

#include <cstddef>
#include <utility>

namespace mcp::detail {

template <class T>
class StorageAllocator {
public:
    using value_type = T;

    explicit StorageAllocator(boost::json::storage_ptr storage) noexcept : storage_(std::move(storage)) {}
    template <class U>
    StorageAllocator(const StorageAllocator<U>& other) noexcept : storage_(other.storage()) {}

    T* allocate(std::size_t n) { return static_cast<T*>(storage_->allocate(n * sizeof(T), alignof(T))); }
    void deallocate(T* p, std::size_t n) noexcept { storage_->deallocate(p, n * sizeof(T), alignof(T)); }
    const boost::json::storage_ptr& storage() const noexcept { return storage_; }

    template <class U>
    bool operator==(const StorageAllocator<U>& other) const noexcept {
        return storage_.get() == other.storage().get();
    }

private:
    boost::json::storage_ptr storage_;
};

}  // namespace mcp::detail
