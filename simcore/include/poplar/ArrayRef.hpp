#pragma once
// A non-owning view of a contiguous sequence, accepted wherever Poplar takes ArrayRef<T>.

#include <array>
#include <cstddef>
#include <initializer_list>
#include <vector>

namespace poplar {

/// A pointer and length; constructible from vectors, arrays, initializer lists and single values.
/// Like Poplar's, it does not own the elements: do not keep it beyond the call it is passed to.
template <typename T> class ArrayRef {
public:
    ArrayRef() = default;
    ArrayRef(const T* data, std::size_t size) : data_(data), size_(size) {}
    ArrayRef(const T& one) : data_(&one), size_(1) {}
    ArrayRef(const std::vector<T>& v) : data_(v.data()), size_(v.size()) {}
    template <std::size_t N> ArrayRef(const std::array<T, N>& a) : data_(a.data()), size_(N) {}
    // The list's array lives until the end of the full expression, which covers the call an
    // ArrayRef argument is made for; that is the only use ArrayRef supports.
#if defined(__GNUC__) && !defined(__clang__) // clang has no such warning, and warns of the name
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
    ArrayRef(std::initializer_list<T> l) : data_(l.begin()), size_(l.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

    const T* data() const {
        return data_;
    }
    std::size_t size() const {
        return size_;
    }
    bool empty() const {
        return size_ == 0;
    }
    const T& operator[](std::size_t i) const {
        return data_[i];
    }
    const T* begin() const {
        return data_;
    }
    const T* end() const {
        return data_ + size_;
    }
    std::vector<T> vec() const {
        return std::vector<T>(begin(), end());
    }
    operator std::vector<T>() const {
        return vec();
    }

private:
    const T* data_ = nullptr;
    std::size_t size_ = 0;
};

} // namespace poplar
