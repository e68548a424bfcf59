#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <vector>

namespace tapestry {

// A vector of a few values, such as one per mesh axis, kept where it is used: up to
// kInline values inline (copying it copies no heap block), more spilled to the heap.
// For values kept by the thousand (per op of an evaluation, per node of a plan) that a
// search copies and compares by the hundred. std::vector's meaning for what it offers.
template <typename T, std::size_t N>
class InlineVector {
public:
    static constexpr std::size_t kInline = N;

    InlineVector() = default;
    InlineVector(std::initializer_list<T> values)
    {
        resize(values.size());
        std::copy(values.begin(), values.end(), begin());
    }
    InlineVector(std::size_t count, T value) { assign(count, value); }
    // Copies touch the heap block only when there is one (a plan copies one per node).
    InlineVector(const InlineVector& other) : inline_(other.inline_), size_(other.size_)
    {
        if (size_ > kInline)
            spilled_ = other.spilled_;
    }
    InlineVector& operator=(const InlineVector& other)
    {
        inline_ = other.inline_;
        size_ = other.size_;
        if (size_ > kInline)
            spilled_ = other.spilled_;
        else
            spilled_.clear();
        return *this;
    }
    InlineVector(InlineVector&&) noexcept = default;
    InlineVector& operator=(InlineVector&&) noexcept = default;

    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    [[nodiscard]] T* data() { return size_ <= kInline ? inline_.data() : spilled_.data(); }
    [[nodiscard]] const T* data() const { return size_ <= kInline ? inline_.data() : spilled_.data(); }
    [[nodiscard]] T* begin() { return data(); }
    [[nodiscard]] T* end() { return data() + size_; }
    [[nodiscard]] const T* begin() const { return data(); }
    [[nodiscard]] const T* end() const { return data() + size_; }
    [[nodiscard]] T& operator[](std::size_t i) { return data()[i]; }
    [[nodiscard]] const T& operator[](std::size_t i) const { return data()[i]; }
    [[nodiscard]] T& at(std::size_t i) { return data()[checked(i)]; }
    [[nodiscard]] const T& at(std::size_t i) const { return data()[checked(i)]; }
    [[nodiscard]] T& front() { return data()[0]; }
    [[nodiscard]] const T& front() const { return data()[0]; }
    [[nodiscard]] T& back() { return data()[size_ - 1]; }
    [[nodiscard]] const T& back() const { return data()[size_ - 1]; }

    void push_back(T value)
    {
        if (size_ < kInline)
            inline_[size_++] = value;
        else
            resize(size_ + 1, value);
    }
    // `count` values, those added set to `value`.
    void resize(std::size_t count, T value = T{})
    {
        if (count > kInline) {
            if (size_ <= kInline)
                spilled_.assign(inline_.begin(), inline_.begin() + static_cast<std::ptrdiff_t>(size_));
            spilled_.resize(count, value);
        } else {
            if (size_ > kInline)
                std::copy(spilled_.begin(), spilled_.begin() + static_cast<std::ptrdiff_t>(count), inline_.begin());
            for (std::size_t i = size_; i < count; ++i)
                inline_[i] = value;
            spilled_.clear();
        }
        size_ = count;
    }
    // `count` values, all set to `value`.
    void assign(std::size_t count, T value)
    {
        size_ = 0;
        spilled_.clear();
        resize(count, value);
    }
    void clear() { assign(0, T{}); }

    // Element by element: a few values, compared by the thousand (is a plan uniform?).
    bool operator==(const InlineVector& other) const
    {
        if (size_ != other.size_)
            return false;
        const T* mine = data();
        const T* theirs = other.data();
        for (std::size_t i = 0; i < size_; ++i) {
            if (!(mine[i] == theirs[i]))
                return false;
        }
        return true;
    }

private:
    [[nodiscard]] std::size_t checked(std::size_t i) const
    {
        if (i >= size_)
            throw std::out_of_range("InlineVector::at");
        return i;
    }

    std::array<T, N> inline_{};
    std::size_t size_ = 0;
    std::vector<T> spilled_;  // all values, when there are more than kInline
};

}  // namespace tapestry
