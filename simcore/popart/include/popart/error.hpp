#pragma once
// PopART's exception types: popart::error for user errors (bad model, unsupported op, wrong
// call order), internal_error for broken invariants, memory_allocation_err when the compiled
// graph does not fit the device's tiles.

#include <stdexcept>
#include <string>

namespace popart {

/// Where an error came from, as PopART's error classes record it.
enum class ErrorSource { popart = 0, popart_internal, poplar, poplibs, unknown };

/// The error PopART throws for anything the user can fix: an unsupported op or attribute (the
/// message names the op type, the node and the opset), a missing tensor, a call out of order.
class error : public std::runtime_error {
public:
    explicit error(const std::string& what) : std::runtime_error(what) {}
    virtual ErrorSource source() const { return ErrorSource::popart; }
};

/// An invariant of the implementation broke: a bug in this library, not in the user's model.
class internal_error : public error {
public:
    explicit internal_error(const std::string& what) : error(what) {}
    ErrorSource source() const override { return ErrorSource::popart_internal; }
};

/// The model's graph does not fit the device's tile memory. getSummaryReport() returns the
/// compile summary; getProfilePath() the profile.pop written when autoReport is enabled.
class memory_allocation_err : public error {
public:
    memory_allocation_err(const std::string& what, const std::string& summary,
                          const std::string& profilePath)
        : error(what), summary_(summary), profilePath_(profilePath) {}
    std::string getSummaryReport() const { return summary_; }
    std::string getProfilePath() const { return profilePath_; }

private:
    std::string summary_;
    std::string profilePath_;
};

} // namespace popart
