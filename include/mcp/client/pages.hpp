#pragma once
// A listing as a C++ range that fetches its pages lazily: stepping past the end of a page asks the
// server for the next one (blocking; a failure throws from the step). A range from a client must
// not outlive it.
//
//   for (const mcp::Tool& tool : client.tools()) std::cout << tool.name << '\n';
#include <mcp/client/errors.hpp>
#include <mcp/client/types.hpp>

#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace mcp {

template <class T>
class Pages {
    struct State;

public:
    using Fetch = std::function<Page<T>(const std::optional<std::string>& cursor)>;

    Pages(Fetch fetch, std::size_t max_pages) : state_(std::make_shared<State>()) {
        state_->fetch = std::move(fetch);
        state_->max_pages = max_pages;
    }

    class iterator {
    public:
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using iterator_concept = std::input_iterator_tag;

        iterator() = default;
        const T& operator*() const { return state_->page.items[state_->index]; }
        const T* operator->() const { return &**this; }
        iterator& operator++() {
            ++state_->index;
            state_->settle();
            return *this;
        }
        void operator++(int) { ++*this; }
        friend bool operator==(const iterator& it, std::default_sentinel_t) { return it.state_->done; }

    private:
        friend class Pages;
        explicit iterator(std::shared_ptr<State> state) : state_(std::move(state)) {}
        std::shared_ptr<State> state_;
    };

    // Fetches the first page. A range is walked once.
    iterator begin() {
        if (!state_->started) {
            state_->started = true;
            state_->fetch_page(std::nullopt);
            state_->settle();
        }
        return iterator(state_);
    }
    std::default_sentinel_t end() const { return {}; }

private:
    struct State {
        Fetch fetch;
        std::size_t max_pages = 0;
        std::size_t pages = 0;
        bool started = false;
        bool done = false;
        Page<T> page;
        std::size_t index = 0;
        std::set<std::string> cursors;

        void fetch_page(const std::optional<std::string>& cursor) {
            if (++pages > max_pages) throw ProtocolViolation("the listing has more pages than the client reads");
            page = fetch(cursor);
            index = 0;
        }
        // Past the page's end: the next page with items, or the end when there is none.
        void settle() {
            while (index >= page.items.size()) {
                if (!page.next_cursor) {
                    done = true;
                    return;
                }
                if (!cursors.insert(*page.next_cursor).second)
                    throw ProtocolViolation("the server's cursors go round in a circle");
                const auto cursor = page.next_cursor;
                fetch_page(cursor);
            }
        }
    };
    std::shared_ptr<State> state_;
};

}  // namespace mcp
