// A calling thread's records of its last few launches, newest last: an operator that
// queues several kernels (a sums launch, then the main one) reports their sum.
#pragma once
#include <cstddef>
#include <deque>
#include <vector>

namespace ascend_sim::detail {

template <class T, size_t Keep = 8>
class RecentLaunches {
public:
    void push(T v) {
        d_.push_back(std::move(v));
        if (d_.size() > Keep) d_.pop_front();
    }
    bool empty() const { return d_.empty(); }
    const T& newest() const { return d_.back(); }
    // The n newest (at most Keep), oldest first.
    std::vector<T> last(size_t n) const {
        const size_t k = n < d_.size() ? n : d_.size();
        return std::vector<T>(d_.end() - static_cast<std::ptrdiff_t>(k), d_.end());
    }

private:
    std::deque<T> d_;
};

}  // namespace ascend_sim::detail
