#pragma once
#include <cstddef>
#include <ostream>

namespace poplar {

/// A half-open range [begin, end) of flattened tensor element indices.
class Interval {
public:
    Interval() = default;
    Interval(std::size_t begin, std::size_t end) : begin_(begin), end_(end) {}
    std::size_t begin() const { return begin_; }
    std::size_t end() const { return end_; }
    std::size_t lower() const { return begin_; }
    std::size_t upper() const { return end_; }
    std::size_t size() const { return end_ - begin_; }
    friend bool operator==(const Interval& a, const Interval& b) {
        return a.begin_ == b.begin_ && a.end_ == b.end_;
    }
    friend bool operator!=(const Interval& a, const Interval& b) { return !(a == b); }
    friend bool operator<(const Interval& a, const Interval& b) {
        return a.begin_ < b.begin_ || (a.begin_ == b.begin_ && a.end_ < b.end_);
    }
    friend std::ostream& operator<<(std::ostream& os, const Interval& i) {
        return os << '[' << i.begin_ << ", " << i.end_ << ')';
    }

private:
    std::size_t begin_ = 0;
    std::size_t end_ = 0;
};

} // namespace poplar
