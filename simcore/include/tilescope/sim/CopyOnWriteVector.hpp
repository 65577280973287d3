#pragma once
// A vector whose copies share their elements until one of them is changed, for the parts of a
// graph an Engine's snapshot copies: a large graph's vertices and variables are then not copied
// (nor freed twice) unless the graph changes after the Engine was made.

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace tilescope::sim {

/// A std::vector with copy-on-write sharing: copying is O(1) (the copies share one buffer) and
/// the first non-const access to a shared copy (element access, non-const iteration, any change)
/// gives it its own elements first. Const access never copies. References and iterators into a
/// copy stay valid while it is not changed, as with std::vector; a copy that is changed no longer
/// sees (or affects) the others. Not thread-safe for concurrent non-const use of copies.
template <typename T> class CopyOnWriteVector {
public:
    using value_type = T;
    using size_type = std::size_t;
    using iterator = typename std::vector<T>::iterator;
    using const_iterator = typename std::vector<T>::const_iterator;

    CopyOnWriteVector() : data_(std::make_shared<std::vector<T>>()) {}
    CopyOnWriteVector(std::initializer_list<T> values)
        : data_(std::make_shared<std::vector<T>>(values)) {}
    CopyOnWriteVector(const CopyOnWriteVector&) = default;
    CopyOnWriteVector& operator=(const CopyOnWriteVector&) = default;
    // A moved-from vector stays valid (empty), so moves are copies of the shared buffer.
    CopyOnWriteVector(CopyOnWriteVector&& other) noexcept : data_(other.data_) {}
    CopyOnWriteVector& operator=(CopyOnWriteVector&& other) noexcept {
        data_ = other.data_;
        return *this;
    }

    // Read access: never copies.
    size_type size() const { return data_->size(); }
    bool empty() const { return data_->empty(); }
    const T& operator[](size_type i) const { return (*data_)[i]; }
    const T& at(size_type i) const { return data_->at(i); }
    const T& front() const { return data_->front(); }
    const T& back() const { return data_->back(); }
    const_iterator begin() const { return data_->cbegin(); }
    const_iterator end() const { return data_->cend(); }
    const_iterator cbegin() const { return data_->cbegin(); }
    const_iterator cend() const { return data_->cend(); }
    const std::vector<T>& vector() const { return *data_; }
    /// Whether another copy shares the elements (for tests).
    bool shared() const { return data_.use_count() > 1; }

    // Write access: the elements become this copy's own first.
    T& operator[](size_type i) { return own()[i]; }
    T& at(size_type i) { return own().at(i); }
    T& front() { return own().front(); }
    T& back() { return own().back(); }
    iterator begin() { return own().begin(); }
    iterator end() { return own().end(); }
    void push_back(const T& value) { own().push_back(value); }
    void push_back(T&& value) { own().push_back(std::move(value)); }
    template <typename... Args> T& emplace_back(Args&&... args) {
        return own().emplace_back(std::forward<Args>(args)...);
    }
    void pop_back() { own().pop_back(); }
    void resize(size_type n) { own().resize(n); }
    void reserve(size_type n) { own().reserve(n); }
    void clear() { data_ = std::make_shared<std::vector<T>>(); }

private:
    std::vector<T>& own() {
        if (data_.use_count() > 1)
            data_ = std::make_shared<std::vector<T>>(*data_);
        return *data_;
    }
    std::shared_ptr<std::vector<T>> data_;
};

} // namespace tilescope::sim
