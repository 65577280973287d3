#pragma once
// Host callbacks that produce or consume the data of stream copies, as in Poplar.

#include <memory>
#include <type_traits>
#include <utility>

namespace poplar {

/// Produces (host-to-device) or consumes (device-to-host) the data of a stream's copies.
/// For a host-to-device stream the engine calls prefetch() after a transfer has completed, to
/// fill the buffer of the next one early; if that returned Result::Success the next copy takes
/// that data, otherwise it calls fetch() when the copy happens. complete() follows every
/// transfer. For a device-to-host stream fetch() receives the data, then complete() is called.
/// invalidatePrefetched() tells the callback that prefetched data will not be used (the stream
/// was connected to something else), so it should produce it again.
class StreamCallback {
public:
    enum class Result { Success, NotAvailable };

    virtual ~StreamCallback() = default;
    /// Fills the buffer for the next transfer if data is available (host-to-device only).
    virtual Result prefetch(void* p) = 0;
    /// Fills (host-to-device) or reads (device-to-host) the buffer of the current transfer.
    virtual void fetch(void* p) = 0;
    /// The transfer whose data came from fetch() or a successful prefetch() is done.
    virtual void complete() = 0;
    /// Data from the last successful prefetch() will not be transferred.
    virtual void invalidatePrefetched() {}
};

/// A StreamCallback that only implements fetch(): prefetching is never available and
/// completion needs no action.
class LegacyStreamCallback : public StreamCallback {
public:
    Result prefetch(void*) override final { return Result::NotAvailable; }
    void invalidatePrefetched() override final {}
    void complete() override final {}
};

namespace detail {

/// True if F can be called with a void* (a lambda, function pointer or std::function).
template <typename F, typename = void> struct IsStreamFunction : std::false_type {};
template <typename F>
struct IsStreamFunction<F, decltype(void(std::declval<F&>()(static_cast<void*>(nullptr))))>
    : std::true_type {};

/// A callable used as a LegacyStreamCallback.
template <typename F> class FunctionStreamCallback final : public LegacyStreamCallback {
public:
    explicit FunctionStreamCallback(F f) : f_(std::move(f)) {}
    void fetch(void* p) override { f_(p); }

private:
    F f_;
};

} // namespace detail

/// What Engine::connectStreamToCallback takes: a StreamCallback object
/// (std::unique_ptr<StreamCallback> or of a class derived from it) or any function callable
/// with a void*, which becomes a LegacyStreamCallback calling it from fetch().
class StreamCallbackHandle {
public:
    template <typename F,
              typename std::enable_if<
                  detail::IsStreamFunction<typename std::decay<F>::type>::value &&
                      !std::is_same<typename std::decay<F>::type, StreamCallbackHandle>::value,
                  int>::type = 0>
    StreamCallbackHandle(F&& f)
        : callback_(new detail::FunctionStreamCallback<typename std::decay<F>::type>(
              std::forward<F>(f))) {}

    template <typename CB,
              typename std::enable_if<std::is_base_of<StreamCallback, CB>::value, int>::type = 0>
    StreamCallbackHandle(std::unique_ptr<CB> callback) : callback_(std::move(callback)) {}

    StreamCallbackHandle(StreamCallbackHandle&&) = default;
    StreamCallbackHandle& operator=(StreamCallbackHandle&&) = default;

    /// Hands the callback over (the handle is empty afterwards).
    std::unique_ptr<StreamCallback> release() { return std::move(callback_); }

private:
    std::unique_ptr<StreamCallback> callback_;
};

} // namespace poplar
