#pragma once
// Little-endian binary encoding for the executable format: a writer appending to a string and a
// bounds-checked reader whose every failure is a poplar_error naming what was being read.

#include "poplar/exceptions.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tilescope::sim {

/// 64-bit FNV-1a: the executable's checksum and the name of stored codelet libraries.
inline std::uint64_t fnv1a(const void* data, std::size_t n) {
    std::uint64_t h = 1469598103934665603ull;
    for (std::size_t i = 0; i < n; ++i) {
        h ^= static_cast<const unsigned char*>(data)[i];
        h *= 1099511628211ull;
    }
    return h;
}
inline std::uint64_t fnv1a(const std::string& s) {
    return fnv1a(s.data(), s.size());
}

class ByteWriter {
public:
    void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
    void u32(std::uint32_t v) { fixed(v, 4); }
    void u64(std::uint64_t v) { fixed(v, 8); }
    void i64(std::int64_t v) { fixed(static_cast<std::uint64_t>(v), 8); }
    void f64(double v) {
        std::uint64_t bits;
        std::memcpy(&bits, &v, 8);
        u64(bits);
    }
    void boolean(bool v) { u8(v ? 1 : 0); }
    void str(const std::string& s) {
        u64(s.size());
        out_ += s;
    }
    void raw(const void* data, std::size_t n) { out_.append(static_cast<const char*>(data), n); }
    void blob(const void* data, std::size_t n) {
        u64(n);
        raw(data, n);
    }
    std::string& data() { return out_; }

private:
    void fixed(std::uint64_t v, int bytes) {
        for (int i = 0; i < bytes; ++i)
            out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    }
    std::string out_;
};

class ByteReader {
public:
    /// `what` names the input in errors, e.g. "Executable::deserialize".
    ByteReader(const std::string& data, std::string what) : data_(data), what_(std::move(what)) {}

    /// What is being read, for the message of a truncated input.
    void context(const char* item) { item_ = item; }
    std::uint8_t u8() { return static_cast<std::uint8_t>(fixed(1)); }
    std::uint32_t u32() { return static_cast<std::uint32_t>(fixed(4)); }
    std::uint64_t u64() { return fixed(8); }
    std::int64_t i64() { return static_cast<std::int64_t>(fixed(8)); }
    double f64() {
        const std::uint64_t bits = fixed(8);
        double v;
        std::memcpy(&v, &bits, 8);
        return v;
    }
    bool boolean() {
        const auto v = u8();
        if (v > 1)
            fail("a flag is " + std::to_string(v) + ", not 0 or 1");
        return v == 1;
    }
    std::string str() {
        const auto n = count(1);
        std::string s = data_.substr(pos_, n);
        pos_ += n;
        return s;
    }
    std::vector<std::byte> bytes() {
        const auto n = count(1);
        std::vector<std::byte> v(n);
        if (n)
            std::memcpy(v.data(), data_.data() + pos_, n);
        pos_ += n;
        return v;
    }
    /// A count of items each at least `minItemBytes` long: larger than the rest of the input can
    /// hold means corrupt or truncated, which is reported before anything is allocated.
    std::size_t count(std::size_t minItemBytes) {
        const std::uint64_t n = u64();
        if (minItemBytes && n > remaining() / minItemBytes)
            truncated(n * minItemBytes);
        return static_cast<std::size_t>(n);
    }
    std::size_t position() const { return pos_; }
    std::size_t remaining() const { return data_.size() - pos_; }
    void raw(void* out, std::size_t n) {
        need(n);
        std::memcpy(out, data_.data() + pos_, n);
        pos_ += n;
    }

    [[noreturn]] void fail(const std::string& message) const {
        throw poplar::poplar_error(what_ + ": corrupt input at byte " + std::to_string(pos_) +
                                   " (reading " + item_ + "): " + message);
    }

private:
    void need(std::uint64_t n) const {
        if (n > remaining())
            truncated(n);
    }
    [[noreturn]] void truncated(std::uint64_t n) const {
        throw poplar::poplar_error(what_ + ": truncated input: " + std::to_string(n) +
                                   " more bytes needed at byte " + std::to_string(pos_) + " of " +
                                   std::to_string(data_.size()) + " (reading " + item_ + ")");
    }
    std::uint64_t fixed(int bytes) {
        need(static_cast<std::uint64_t>(bytes));
        std::uint64_t v = 0;
        for (int i = 0; i < bytes; ++i)
            v |= static_cast<std::uint64_t>(static_cast<unsigned char>(data_[pos_ + i])) << (8 * i);
        pos_ += static_cast<std::size_t>(bytes);
        return v;
    }

    const std::string& data_;
    std::string what_;
    std::string item_ = "the header";
    std::size_t pos_ = 0;
};

} // namespace tilescope::sim
