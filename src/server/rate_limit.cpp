// mcp::rate_limit: a token bucket per client: its principal, else its address.
#include <mcp/server/interceptor.hpp>

#include "util/client_key.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace mcp {

namespace {

using Clock = std::chrono::steady_clock;

class Buckets {
public:
    Buckets(double rate, double burst) : rate_(rate), burst_(burst) {}

    // Zero when a request may go now, else the seconds until it could.
    double take(const std::string& subject) {
        const auto now = Clock::now();
        std::lock_guard lock(mutex_);
        if (buckets_.size() >= kMaxSubjects) forget_full(now);
        auto [it, added] = buckets_.try_emplace(subject, Bucket{burst_, now});
        auto& b = it->second;
        b.tokens = std::min(burst_, b.tokens + std::chrono::duration<double>(now - b.at).count() * rate_);
        b.at = now;
        if (b.tokens >= 1) {
            b.tokens -= 1;
            return 0;
        }
        return (1 - b.tokens) / rate_;
    }

private:
    struct Bucket {
        double tokens;
        Clock::time_point at;
    };
    // Subjects come from verified tokens, but an issuer may mint many, and addresses are many: the
    // table stays bounded.
    static constexpr std::size_t kMaxSubjects = 100'000;

    // A full bucket is the same as no bucket: those go first.
    void forget_full(Clock::time_point now) {
        std::erase_if(buckets_, [&](const auto& kv) {
            return kv.second.tokens + std::chrono::duration<double>(now - kv.second.at).count() * rate_ >= burst_;
        });
        if (buckets_.size() >= kMaxSubjects) buckets_.clear();  // all busy at once: start over
    }

    const double rate_;
    const double burst_;
    std::mutex mutex_;
    std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace

Interceptor rate_limit(double per_second, double burst) {
    if (!(per_second > 0) || !(burst >= 1))
        throw std::invalid_argument("a rate limit needs a rate > 0 and a burst >= 1");
    auto buckets = std::make_shared<Buckets>(per_second, burst);
    return [buckets](const Invocation& call, const Proceed& next) {
        const auto& principal = call.exchange.principal();
        const double wait = buckets->take(detail::client_key(
            principal ? std::string_view(principal->subject) : std::string_view(), call.exchange.client_address()));
        if (wait > 0) {
            const auto retry_after = std::to_string(static_cast<long long>(std::ceil(wait)));
            throw Refusal(429, error_code::rate_limited, "Too many requests: try again in " + retry_after + " s",
                          {{"Retry-After", retry_after}});
        }
        return next();
    };
}

}  // namespace mcp
