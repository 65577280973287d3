#pragma once
// A non-owning string argument that builds from C strings, std::string and (pointer, length).

#include <cstddef>
#include <cstring>
#include <ostream>
#include <string>
#include <type_traits>
#if __cplusplus >= 201703L
#include <string_view>
#endif

namespace poplar {

/// Poplar's non-owning string argument type: a pointer and a length into a string the caller
/// keeps alive for the duration of the call. It is a class rather than std::string_view so that
/// the headers compile under C++11; under C++17 and later it converts to and from
/// std::string_view implicitly.
class StringRef {
public:
    using const_iterator = const char*;
    using iterator = const_iterator;

    StringRef() : data_(""), size_(0) {}
    StringRef(const char* s) : data_(s ? s : ""), size_(s ? std::strlen(s) : 0) {}
    StringRef(const char* s, std::size_t size) : data_(s), size_(size) {}
    StringRef(const std::string& s) : data_(s.data()), size_(s.size()) {}
#if __cplusplus >= 201703L
    StringRef(std::string_view s) : data_(s.data()), size_(s.size()) {}
    operator std::string_view() const { return std::string_view(data_, size_); }
#endif

    const char* data() const { return data_; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const_iterator begin() const { return data_; }
    const_iterator end() const { return data_ + size_; }
    char operator[](std::size_t i) const { return data_[i]; }

    std::string cloneAsString() const { return std::string(data_, size_); }
    operator std::string() const { return cloneAsString(); }

    /// Three-way comparison of the characters (as std::string::compare).
    int compare(const StringRef& other) const {
        const std::size_t n = size_ < other.size_ ? size_ : other.size_;
        const int c = n == 0 ? 0 : std::memcmp(data_, other.data_, n);
        if (c != 0)
            return c;
        return size_ < other.size_ ? -1 : (size_ > other.size_ ? 1 : 0);
    }

    friend bool operator==(const StringRef& a, const StringRef& b) {
        return a.size_ == b.size_ && a.compare(b) == 0;
    }
    friend bool operator!=(const StringRef& a, const StringRef& b) { return !(a == b); }
    friend bool operator<(const StringRef& a, const StringRef& b) { return a.compare(b) < 0; }
    friend std::ostream& operator<<(std::ostream& os, const StringRef& s) {
        return os << s.cloneAsString();
    }

#if __cplusplus >= 201703L
    // Exact-match overloads for std::string_view operands: without them a comparison with a
    // string_view would be ambiguous between these operators and string_view's own.
    template <typename SV, typename std::enable_if<std::is_same<SV, std::string_view>::value,
                                                   int>::type = 0>
    friend bool operator==(const StringRef& a, const SV& b) {
        return a == StringRef(b);
    }
    template <typename SV, typename std::enable_if<std::is_same<SV, std::string_view>::value,
                                                   int>::type = 0>
    friend bool operator==(const SV& a, const StringRef& b) {
        return StringRef(a) == b;
    }
    template <typename SV, typename std::enable_if<std::is_same<SV, std::string_view>::value,
                                                   int>::type = 0>
    friend bool operator!=(const StringRef& a, const SV& b) {
        return !(a == StringRef(b));
    }
    template <typename SV, typename std::enable_if<std::is_same<SV, std::string_view>::value,
                                                   int>::type = 0>
    friend bool operator!=(const SV& a, const StringRef& b) {
        return !(StringRef(a) == b);
    }
#endif

private:
    const char* data_;
    std::size_t size_;
};

} // namespace poplar
